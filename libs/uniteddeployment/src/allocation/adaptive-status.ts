/**
 * Whether a subset is unschedulable under the default Adaptive strategy, OpenKruise
 * `calculateSubsetsStatusForDefaultAdaptiveStrategy` (`pkg/controller/uniteddeployment/uniteddeployment_controller.go`):
 * a subset with a pod that stayed unschedulable longer than `rescheduleCriticalSeconds` is marked
 * `Schedulable=False` and stays so for `unschedulableDuration`, then recovers.
 */
import {
  UnitedDeploymentConditionReasons,
  type Pod,
  type UnitedDeploymentSubsetCondition,
} from '@regatta/api';
import { pendingTimeout } from './pod-timeouts.js';
import { getSubsetCondition, setSubsetCondition, transitionTimeMs } from './subset-conditions.js';
import { soonest, type AdaptiveTiming } from './timing.js';

export interface AdaptiveSubsetInput {
  /** The subset's `status.subsetStatuses[].conditions` before this pass. */
  conditions?: readonly UnitedDeploymentSubsetCondition[] | undefined;
  /** The workload's `status.replicas` and `status.readyReplicas`. */
  replicas: number;
  readyReplicas: number;
  /** The subset's pods. */
  pods: readonly Pod[];
}

export interface AdaptiveSubsetState {
  unschedulable: boolean;
  /** Pods that timed out unschedulable. */
  pendingPods: number;
  /** The subset's conditions after this pass. */
  conditions: UnitedDeploymentSubsetCondition[];
  /** When to look again (ms), if anything is pending. */
  requeueAfterMs?: number;
}

export function defaultAdaptiveSubsetState(
  input: AdaptiveSubsetInput,
  timing: AdaptiveTiming,
  now: number,
): AdaptiveSubsetState {
  let conditions = [...(input.conditions ?? [])];
  let unschedulable = false;
  let pendingPods = 0;
  const requeue: number[] = [];

  const condition = getSubsetCondition(conditions);
  if (condition && condition.status === 'False') {
    const recoverAt = transitionTimeMs(condition) + timing.unschedulableMs;
    if (now < recoverAt) {
      requeue.push(recoverAt - now);
      unschedulable = true;
    } else {
      conditions = setSubsetCondition(
        conditions,
        {
          status: 'True',
          reason: UnitedDeploymentConditionReasons.Recover,
          message: `unschedulable subset recovered after ${(timing.unschedulableMs / 1000).toFixed(6)} seconds`,
        },
        now,
      );
    }
  }

  if (input.readyReplicas < input.replicas) {
    let soonestCheck: number | undefined;
    for (const pod of input.pods) {
      const check = pendingTimeout(pod, timing.rescheduleCriticalMs, now);
      if (check.timedOut) pendingPods++;
      if (
        check.nextCheckAfterMs > 0 &&
        (soonestCheck === undefined || check.nextCheckAfterMs < soonestCheck)
      ) {
        soonestCheck = check.nextCheckAfterMs;
      }
    }
    if (soonestCheck !== undefined) requeue.push(soonestCheck);
    if (pendingPods > 0) {
      unschedulable = true;
      conditions = setSubsetCondition(
        conditions,
        {
          status: 'False',
          reason: UnitedDeploymentConditionReasons.Reschedule,
          message: 'timeout pending pods found',
        },
        now,
      );
      requeue.push(timing.unschedulableMs);
    }
  }

  const requeueAfterMs = soonest(requeue);
  return { unschedulable, pendingPods, conditions, ...(requeueAfterMs !== undefined && { requeueAfterMs }) };
}
