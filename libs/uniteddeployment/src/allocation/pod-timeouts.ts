/**
 * When a pod counts as failed to schedule or stuck in an update (OpenKruise `GetTimeBeforePendingTimeout`,
 * `GetTimeBeforeUpdateTimeout`; `pkg/controller/util/pod_condition_utils.go`). Times in ms since the epoch; a
 * `nextCheckAfterMs` of -1 means nothing to wait for.
 */
import type { Pod, UnitedDeploymentCondition } from '@regatta/api';
import { transitionTimeMs } from './subset-conditions.js';

export interface TimeoutCheck {
  timedOut: boolean;
  nextCheckAfterMs: number;
}

function createdAtMs(pod: Pod): number {
  const t = pod.metadata?.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

/**
 * A live, unbound Pending pod that the scheduler marked `PodScheduled=False` reason `Unschedulable` times out
 * `timeoutMs` after its creation; other pods never do.
 */
export function pendingTimeout(pod: Pod, timeoutMs: number, now: number): TimeoutCheck {
  if (pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Pending' || pod.spec?.nodeName) {
    return { timedOut: false, nextCheckAfterMs: -1 };
  }
  const failed = (pod.status?.conditions ?? []).some(
    (c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable',
  );
  if (!failed) return { timedOut: false, nextCheckAfterMs: -1 };
  const expected = createdAtMs(pod) + timeoutMs;
  return expected < now
    ? { timedOut: true, nextCheckAfterMs: -1 }
    : { timedOut: false, nextCheckAfterMs: expected - now };
}

/**
 * A live pod of an old revision times out `timeoutMs` after the UD's `UnitedDeploymentUpdated` condition last
 * changed (the update began). Without that condition nothing times out (upstream would dereference nil).
 */
export function updateTimeout(
  pod: Pod,
  updatedCondition: UnitedDeploymentCondition | undefined,
  timeoutMs: number,
  now: number,
): TimeoutCheck {
  if (pod.metadata?.deletionTimestamp || !updatedCondition) return { timedOut: false, nextCheckAfterMs: -1 };
  const expected = transitionTimeMs(updatedCondition) + timeoutMs;
  return expected < now
    ? { timedOut: true, nextCheckAfterMs: -1 }
    : { timedOut: false, nextCheckAfterMs: expected - now };
}
