/**
 * Which WorkloadSpreads a change concerns (`pkg/controller/workloadspread/workloadspread_event_handler.go`): a pod
 * change → the spread whose target controls the pod; a workload change (CloneSet, Deployment, ReplicaSet, Job,
 * StatefulSet) → the spread that targets it (a ReplicaSet also → its Deployment's spread).
 */
import { groupOf, type Pod, type WorkloadSpread } from '@regatta/api';
import type { Change, KubeObject } from '@regatta/kube';
import type { Request } from '@regatta/runtime';
import { controllerOf, spreadForPod } from './target.js';

interface SpreadReaders {
  workloadspreads: { list(opts?: { namespace?: string }): WorkloadSpread[] };
  replicasets: { get(namespace: string | undefined, name: string): KubeObject | undefined };
}

const req = (ws: WorkloadSpread): Request => ({ namespace: ws.metadata?.namespace ?? '', name: ws.metadata?.name ?? '' });

/** Spreads for a pod change (the pod as it is and as it was). */
export function spreadsForPodChange(change: Change<Pod>, readers: SpreadReaders): Request[] {
  const out = new Map<string, Request>();
  for (const pod of [change.object, change.old]) {
    if (!pod) continue;
    const namespace = pod.metadata?.namespace ?? '';
    const ws = spreadForPod(pod, namespace, readers.workloadspreads.list({ namespace }), (n) => readers.replicasets.get(namespace, n));
    if (ws) out.set(`${namespace}/${ws.metadata?.name}`, req(ws));
  }
  return [...out.values()];
}

/** Spreads for a workload change of `kind`. */
export function spreadsForWorkloadChange(kind: string) {
  return <T extends KubeObject>(change: Change<T>, readers: SpreadReaders): Request[] => {
    const obj = change.object ?? change.old;
    if (!obj) return [];
    const namespace = obj.metadata?.namespace ?? '';
    const targets = [{ kind, group: groupOf(obj.apiVersion ?? ''), name: obj.metadata?.name ?? '' }];
    const owner = kind === 'ReplicaSet' ? controllerOf(obj) : undefined;
    if (owner) targets.push({ kind: owner.kind, group: groupOf(owner.apiVersion), name: owner.name });
    return readers.workloadspreads
      .list({ namespace })
      .filter((ws) => targets.some((t) => t.kind === ws.spec?.targetRef?.kind && t.name === ws.spec.targetRef.name))
      .map(req);
  };
}

/** The pods the program keeps: those some workload controls (only those can be targeted). */
export function isWorkloadPod(pod: KubeObject): boolean {
  const owner = controllerOf(pod);
  return !!owner && ['CloneSet', 'ReplicaSet', 'Job', 'StatefulSet'].includes(owner.kind);
}
