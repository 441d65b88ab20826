/**
 * Which budgets a change concerns (upstream `pkg/controller/podunavailablebudget/pub_pod_event_handler.go`): a pod
 * created, deleted, or changed in what the budget reads (availability, labels, marks, deletion) → its budget and the
 * budget that now selects it; a workload created, deleted or rescaled → the budgets of its pods.
 */
import { PubKeys, sameTarget, type Pod, type PodUnavailableBudget } from '@regatta/api';
import {
  type Change,
  type KubeObject,
  compileLabelSelector,
  isSelectorEmpty,
  jsonEqual,
} from '@regatta/kube';
import type { Request } from '@regatta/runtime';
import { isPodAvailable } from './budget.js';
import { pubForPod, type WorkloadView, type Workloads } from './selection.js';

const req = (namespace: string | undefined, name: string): Request => ({ namespace: namespace ?? '', name });

function dedupe(reqs: Request[]): Request[] {
  const seen = new Set<string>();
  return reqs.filter((r) => {
    const k = `${r.namespace}/${r.name}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** What of a pod the budget reads changed. */
export function podChangeMatters(change: Change<Pod & KubeObject>): boolean {
  if (change.type !== 'update' || !change.old) return true;
  const a = change.old;
  const b = change.object;
  return (
    !!a.metadata?.deletionTimestamp !== !!b.metadata?.deletionTimestamp ||
    a.status?.phase !== b.status?.phase ||
    isPodAvailable(a) !== isPodAvailable(b) ||
    !jsonEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
    a.metadata?.annotations?.[PubKeys.RelatedPub] !== b.metadata?.annotations?.[PubKeys.RelatedPub] ||
    a.metadata?.annotations?.[PubKeys.NoProtect] !== b.metadata?.annotations?.[PubKeys.NoProtect]
  );
}

export function pubsForPodChange(
  change: Change<Pod & KubeObject>,
  readers: { pubs: { list(opts?: { namespace?: string }): (PodUnavailableBudget & KubeObject)[] } },
  workloads: Workloads,
): Request[] {
  if (!podChangeMatters(change)) return [];
  const pod = change.object;
  const ns = pod.metadata?.namespace;
  const out: Request[] = [];
  for (const p of [change.old, change.object]) {
    const related = p?.metadata?.annotations?.[PubKeys.RelatedPub];
    if (related) out.push(req(ns, related));
  }
  if (change.type !== 'delete') {
    const pub = pubForPod(pod, readers.pubs.list({ namespace: ns }), workloads);
    if (pub?.metadata?.name) out.push(req(ns, pub.metadata.name));
  }
  return dedupe(out);
}

/** A workload's group and kind from its apiVersion (cached objects carry them from the watcher's list). */
export function pubsForWorkloadChange(
  group: string,
  kind: string,
  change: Change<WorkloadView>,
  pubs: readonly (PodUnavailableBudget & KubeObject)[],
): Request[] {
  const w = change.object;
  if (change.type === 'update' && change.old && (change.old.spec?.replicas ?? 1) === (w.spec?.replicas ?? 1))
    return [];
  const ns = w.metadata?.namespace;
  const labels = w.spec?.template?.metadata?.labels ?? {};
  const target = { apiVersion: `${group}/v1`, kind, name: w.metadata?.name ?? '' };
  return dedupe(
    pubs
      .filter((p) => p.metadata?.namespace === ns)
      .filter((p) => {
        const ref = p.spec?.targetRef;
        if (ref) return sameTarget(target, ref);
        const sel = p.spec?.selector;
        return !!sel && !isSelectorEmpty(sel) && compileLabelSelector(sel).matches(labels);
      })
      .map((p) => req(ns, p.metadata?.name ?? '')),
  );
}
