/**
 * Reservation mode (Adaptive with `reserveUnschedulablePods`), OpenKruise `CheckPodReallyInReservedStatus`,
 * `calculateSubsetsStatusForReservedAdaptiveStrategy` and `postProcessSubsetStatusForReservedAdaptiveStrategy`
 * (`pkg/controller/uniteddeployment/`): which pods are reserved (kept although they cannot run, with a temporary
 * substitute elsewhere), the subset's `Schedulable` condition, and the pods whose reserved label must be written.
 */
import {
  UnitedDeploymentConditionReasons,
  UnitedDeploymentLabels,
  type Pod,
  type UnitedDeploymentCondition,
  type UnitedDeploymentSubsetCondition,
} from '@regatta/api';
import { pendingTimeout, updateTimeout } from './pod-timeouts.js';
import { getSubsetCondition, setSubsetCondition, transitionTimeMs } from './subset-conditions.js';
import type { AdaptiveTiming } from './timing.js';

/** The pod's reserved label says `"true"` (`reserved`), and whether it has the label at all (`labelled`). */
export function podReservedLabel(pod: Pod): { reserved: boolean; labelled: boolean } {
  const v = pod.metadata?.labels?.[UnitedDeploymentLabels.ReservedPod];
  return { reserved: v === 'true', labelled: v !== undefined };
}

export interface PodReservedCheck {
  reserved: boolean;
  /** When the answer may change (ms); -1 when it will not by itself. */
  nextCheckAfterMs: number;
  /** An old-revision pod that timed out in the update (counts toward the update's maxUnavailable). */
  updateTimedOut: boolean;
}

export interface ReservedCheckContext {
  /** The revision the subset's pods should have (the subset workload's revision label). */
  updatedRevision: string;
  /** The UD's `UnitedDeploymentUpdated` condition. */
  updatedCondition?: UnitedDeploymentCondition | undefined;
  timing: AdaptiveTiming;
  now: number;
}

function readySinceMs(pod: Pod): number | undefined {
  const c = (pod.status?.conditions ?? []).find((x) => x.type === 'Ready');
  if (!c || c.status !== 'True') return undefined;
  return transitionTimeMs(c);
}

/**
 * A reserved pod stays reserved until it runs at the updated revision and has been Ready for
 * `unschedulableDuration`. Another pod becomes reserved when it stayed unschedulable past
 * `rescheduleCriticalSeconds` (updated revision) or the update has lasted that long (old revision).
 */
export function checkPodReserved(pod: Pod, ctx: ReservedCheckContext): PodReservedCheck {
  const revision = pod.metadata?.labels?.[UnitedDeploymentLabels.ControllerRevisionHash] ?? '';
  const minReadyMs = ctx.timing.unschedulableMs;
  if (podReservedLabel(pod).reserved) {
    if (pod.status?.phase === 'Running' && revision === ctx.updatedRevision) {
      const since = readySinceMs(pod);
      if (since !== undefined) {
        const until = since + minReadyMs;
        if (until < ctx.now) return { reserved: false, nextCheckAfterMs: -1, updateTimedOut: false };
        return { reserved: true, nextCheckAfterMs: until - ctx.now, updateTimedOut: false };
      }
    }
    return { reserved: true, nextCheckAfterMs: minReadyMs, updateTimedOut: false };
  }
  const updated = revision === ctx.updatedRevision;
  const check = updated
    ? pendingTimeout(pod, ctx.timing.rescheduleCriticalMs, ctx.now)
    : updateTimeout(pod, ctx.updatedCondition, ctx.timing.rescheduleCriticalMs, ctx.now);
  if (check.timedOut) return { reserved: true, nextCheckAfterMs: minReadyMs, updateTimedOut: !updated };
  return { reserved: false, nextCheckAfterMs: check.nextCheckAfterMs, updateTimedOut: false };
}

export interface ReservedSubsetInput {
  /** The subset's `status.subsetStatuses[].conditions` before this pass. */
  conditions?: readonly UnitedDeploymentSubsetCondition[] | undefined;
  pods: readonly Pod[];
}

export interface ReservedSubsetState {
  /** `Schedulable` was False before this pass. */
  markedAsUnschedulable: boolean;
  /** The subset has reserved pods now. */
  unschedulable: boolean;
  reservedPods: number;
  /** Old-revision pods that timed out in the update. */
  updateTimeoutPods: number;
  /** Pods whose label `apps.kruise.io/united-deployment-reserved-pod` must be set to `"true"` / `"false"`. */
  podsToLabel: { pod: Pod; reserved: boolean }[];
  conditions: UnitedDeploymentSubsetCondition[];
  requeueAfterMs?: number;
}

export function reservedSubsetState(
  input: ReservedSubsetInput,
  ctx: ReservedCheckContext,
): ReservedSubsetState {
  const condition = getSubsetCondition(input.conditions);
  const markedAsUnschedulable = condition?.status === 'False';
  let reservedPods = 0;
  let updateTimeoutPods = 0;
  const podsToLabel: { pod: Pod; reserved: boolean }[] = [];
  let requeue = Infinity;
  for (const pod of input.pods) {
    const label = podReservedLabel(pod);
    if (markedAsUnschedulable && !label.labelled) {
      // a pod created in a subset marked unschedulable is reserved from the start
      reservedPods++;
      podsToLabel.push({ pod, reserved: true });
      // upstream's guard compares against "never", so this only raises an earlier pod's requeue (spec §6.6)
      if (requeue < ctx.timing.unschedulableMs) requeue = ctx.timing.unschedulableMs;
      continue;
    }
    const check = checkPodReserved(pod, ctx);
    if (check.reserved) reservedPods++;
    if (check.updateTimedOut) updateTimeoutPods++;
    if (check.nextCheckAfterMs > 0 && check.nextCheckAfterMs < requeue) requeue = check.nextCheckAfterMs;
    if (check.reserved !== label.reserved || !label.labelled)
      podsToLabel.push({ pod, reserved: check.reserved });
  }
  const unschedulable = reservedPods > 0;
  const conditions = setSubsetCondition(
    input.conditions,
    unschedulable
      ? {
          status: 'False',
          reason: UnitedDeploymentConditionReasons.Reschedule,
          message: 'reserved pods found',
        }
      : { status: 'True', reason: UnitedDeploymentConditionReasons.Reschedule, message: 'no reserved pods' },
    ctx.now,
  );
  return {
    markedAsUnschedulable,
    unschedulable,
    reservedPods,
    updateTimeoutPods,
    podsToLabel,
    conditions,
    ...(requeue < Infinity && { requeueAfterMs: requeue }),
  };
}

/**
 * After allocation: a subset that just recovered (schedulable now, marked before) and gets more replicas than it
 * has is marked `Schedulable=False` again, so its new pods start reserved and the temporary pods elsewhere are only
 * removed once the new ones are healthy. Returns the conditions to write (unchanged when nothing applies).
 */
export function conditionsAfterReservedAllocation(
  state: {
    unschedulable: boolean;
    markedAsUnschedulable: boolean;
    conditions: readonly UnitedDeploymentSubsetCondition[];
  },
  currentReplicas: number,
  nextReplicas: number,
  now: number,
): UnitedDeploymentSubsetCondition[] {
  if (!state.unschedulable && state.markedAsUnschedulable && nextReplicas > currentReplicas) {
    return setSubsetCondition(
      state.conditions,
      {
        status: 'False',
        reason: UnitedDeploymentConditionReasons.Reschedule,
        message: 'subset just recovered scaled up',
      },
      now,
    );
  }
  return [...state.conditions];
}
