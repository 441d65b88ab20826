/**
 * k8s `controller.ActivePods` ordering, the base order of both CloneSet update candidates and scale-down victims
 * ("smaller" goes first): unassigned < assigned; Pending < Unknown < Running; not ready < ready; more recently ready
 * first; more restarts first; newer first.
 */
import { type Pod, getPodCondition, isPodReady } from '@regatta/lifecycle';

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** Phase rank: Pending (and anything unknown to the ordering) 0, Unknown 1, Running 2. */
export function phaseRank(pod: Pod): number {
  return PHASE_ORDER[pod.status?.phase ?? ''] ?? 0;
}

/** Milliseconds of a timestamp, or `undefined` for a missing / zero one. */
function time(ts: string | null | undefined): number | undefined {
  if (!ts) return undefined;
  const t = Date.parse(ts);
  return Number.isNaN(t) || t <= -62135596800000 ? undefined : t;
}

/** `afterOrZero`: t1 after t2; a zero time counts as after any non-zero time. Returns -1 (t1 first), 1, or 0. */
export function compareAfterOrZero(t1: string | null | undefined, t2: string | null | undefined): number {
  const a = time(t1);
  const b = time(t2);
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
  return a > b ? -1 : 1;
}

/** When the pod became ready (the Ready condition's lastTransitionTime while it is True). */
export function podReadyTime(pod: Pod): string | null | undefined {
  if (!isPodReady(pod)) return undefined;
  return getPodCondition(pod, 'Ready')?.lastTransitionTime;
}

/** The highest restart count among the pod's containers. */
export function maxContainerRestarts(pod: Pod): number {
  return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** Unassigned (no nodeName) first; 0 when both or neither are assigned. */
export function compareAssigned(a: Pod, b: Pod): number {
  const na = a.spec?.nodeName ?? '';
  const nb = b.spec?.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '' ? -1 : 1;
  return 0;
}

/** The k8s `ActivePods` comparator (negative: `a` goes first). */
export function compareActivePods(a: Pod, b: Pod): number {
  const assigned = compareAssigned(a, b);
  if (assigned !== 0) return assigned;
  if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b);
  const ra = isPodReady(a);
  const rb = isPodReady(b);
  if (ra !== rb) return ra ? 1 : -1;
  if (ra && rb) {
    const ready = compareAfterOrZero(podReadyTime(a), podReadyTime(b));
    if (ready !== 0) return ready;
  }
  const restarts = maxContainerRestarts(b) - maxContainerRestarts(a);
  if (restarts !== 0) return restarts;
  return compareAfterOrZero(a.metadata?.creationTimestamp, b.metadata?.creationTimestamp);
}
