/**
 * Pod facts the StatefulSet rules read (OpenKruise `pkg/controller/statefulset/stateful_set_utils.go`
 * `isCreated`, `isHealthy`, `isRunningAndReady`, `isRunningAndAvailable`).
 */
import {
  LifecycleState,
  type Pod,
  getPodCondition,
  getPodLifecycleState,
  isPodReady,
} from '@regatta/lifecycle';

/** The API server has the pod (it has a phase). */
export function isCreated(pod: Pod): boolean {
  return (pod.status?.phase ?? '') !== '';
}

export function isTerminating(pod: Pod): boolean {
  return Boolean(pod.metadata?.deletionTimestamp);
}

export function isFailedOrSucceeded(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
}

export function isRunningAndReady(pod: Pod): boolean {
  return pod.status?.phase === 'Running' && isPodReady(pod);
}

function normalOrNoState(pod: Pod): boolean {
  const state = getPodLifecycleState(pod);
  return state === '' || state === LifecycleState.Normal;
}

/** Lifecycle ""/Normal, Running, Ready and not terminating. */
export function isHealthy(pod: Pod): boolean {
  return normalOrNoState(pod) && isRunningAndReady(pod) && !isTerminating(pod);
}

/**
 * Running, Ready for at least `minReadySeconds`, lifecycle ""/Normal. `waitMs` > 0: when to look again (ready but not
 * for long enough); 0 when there is nothing to wait for.
 */
export function runningAndAvailable(
  pod: Pod,
  minReadySeconds: number,
  now: Date,
): { available: boolean; waitMs: number } {
  if (!normalOrNoState(pod) || !isRunningAndReady(pod)) return { available: false, waitMs: 0 };
  if (minReadySeconds <= 0) return { available: true, waitMs: 0 };
  const since = getPodCondition(pod, 'Ready')?.lastTransitionTime;
  const t = since ? Date.parse(since) : Number.NaN;
  if (!Number.isFinite(t)) return { available: false, waitMs: minReadySeconds * 1000 };
  const wait = t + minReadySeconds * 1000 - now.getTime();
  return wait > 0 ? { available: false, waitMs: wait } : { available: true, waitMs: 0 };
}
