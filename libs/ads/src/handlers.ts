/**
 * What the DaemonSet program maps by hand on top of the kit's generic handlers (OpenKruise
 * `pkg/controller/daemonset/daemonset_event_handler.go`): a node change to the DaemonSets whose eligibility may have
 * changed, orphan pods to the DaemonSets that may adopt them, and which pods the cache keeps.
 */
import type { Change, KubeObject, LabelSelector } from '@regatta/kube';
import { compileLabelSelector, controllerRef, jsonEqual } from '@regatta/kube';
import { type OwnerKind, type Request, controllerRequest, requestForObject } from '@regatta/runtime';

export const DAEMONSET_OWNER: OwnerKind = { group: 'apps.kruise.io', kind: 'DaemonSet' };

export function owningDaemonSet(obj: KubeObject): Request | undefined {
  return controllerRequest(DAEMONSET_OWNER, obj);
}

/** Pods the program keeps in its cache: DaemonSets' pods and orphans it may adopt. */
export function isDaemonSetPodOrOrphan(pod: KubeObject): boolean {
  return controllerRef(pod) === undefined || owningDaemonSet(pod) !== undefined;
}

type NodeLike = KubeObject & {
  spec?: { taints?: unknown; unschedulable?: unknown };
  status?: { conditions?: { type: string; status: string }[] | null };
};

/**
 * `ShouldIgnoreNodeUpdate`: an update that changes neither labels, taints, unschedulable nor which conditions are
 * True (heartbeats, images, allocatable…) cannot change where a daemon should run.
 */
export function nodeChangeMatters(change: Change): boolean {
  if (change.type !== 'update' || !change.old) return true;
  const a = change.old as NodeLike;
  const b = change.object as NodeLike;
  const trueConditions = (n: NodeLike) =>
    (n.status?.conditions ?? [])
      .filter((c) => c.status === 'True')
      .map((c) => c.type)
      .sort();
  return (
    !jsonEqual(a.metadata?.labels ?? {}, b.metadata?.labels ?? {}) ||
    !jsonEqual(a.spec?.taints ?? [], b.spec?.taints ?? []) ||
    (a.spec?.unschedulable ?? false) !== (b.spec?.unschedulable ?? false) ||
    !jsonEqual(trueConditions(a), trueConditions(b))
  );
}

/** A node changed (the Watches mapping on nodes): every DaemonSet, when the change may move its pods. */
export function daemonSetsForNodeChange(
  change: Change,
  readers: { daemonsets: { list(): KubeObject[] } },
): Request[] {
  if (!nodeChangeMatters(change)) return [];
  return readers.daemonsets.list().map((ds) => requestForObject(ds));
}

/** A pod no controller owns: the DaemonSets of its namespace whose selector matches it. */
export function daemonSetsForOrphanChange(
  change: Change,
  readers: { daemonsets: { list(opts: { namespace: string }): KubeObject[] } },
): Request[] {
  const pod = change.object;
  if (change.type === 'delete' || controllerRef(pod) !== undefined || pod.metadata?.deletionTimestamp)
    return [];
  const out: Request[] = [];
  for (const ds of readers.daemonsets.list({ namespace: pod.metadata?.namespace ?? '' })) {
    const selector = (ds as { spec?: { selector?: LabelSelector | null } }).spec?.selector ?? null;
    try {
      const s = compileLabelSelector(selector);
      if (!s.everything && !s.nothing && s.matches(pod.metadata?.labels)) out.push(requestForObject(ds));
    } catch {
      // an invalid selector matches nothing
    }
  }
  return out;
}
