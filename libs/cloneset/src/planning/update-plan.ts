/**
 * Which pods a CloneSet updates this round (steps 2–7 of `Update`, `pkg/controller/cloneset/sync/cloneset_update.go`): the diff's `updateNum`, the
 * candidates not at the target revision, their order, and the `maxUnavailable` limit.
 */
import { LifecycleState, type Pod, getPodLifecycleState } from '@regatta/lifecycle';
import { isInGracePeriod } from '@regatta/inplace-update';
import { isPodAtRevision } from '@regatta/revision';
import { isCloneSetPodAvailable, type CloneSetRolloutSpec, sortUpdateIndexes } from '@regatta/rollout';
import { type ExpectationDiffs, calculateDiffsWithExpectation } from './diff.js';

/** Update strategy type that never updates existing pods (v1beta1; pods are replaced only when deleted). */
export const ON_DELETE = 'OnDelete';

/**
 * Step 5: indexes of the pods waiting to move — not at the update revision when `updateNum > 0`, at it when rolling
 * back — skipping PreparingDelete pods and pods still in an in-place grace period (except `Updated` ones).
 */
export function updateCandidates(pods: readonly Pod[], updateRevision: string, updateNum: number): number[] {
  const out: number[] = [];
  pods.forEach((pod, i) => {
    const atUpdate = isPodAtRevision(pod, updateRevision);
    if (updateNum > 0 ? atUpdate : !atUpdate) return;
    const state = getPodLifecycleState(pod);
    if (state === LifecycleState.PreparingDelete) return;
    if (state !== LifecycleState.Updated && isInGracePeriod(pod)) return;
    out.push(i);
  });
  return out;
}

/**
 * `limitUpdateIndexes`: at most `|updateNum|` of the ordered candidates, stopping before the unavailable pods at the
 * target revision plus those accepted reach `updateMaxUnavailable`, or an available candidate would take the
 * overall unavailable count to it.
 */
export function limitUpdateIndexes(
  pods: readonly Pod[],
  orderedIndexes: readonly number[],
  diffs: Pick<ExpectationDiffs, 'updateNum' | 'updateMaxUnavailable'>,
  targetRevision: string,
  isAvailable: (pod: Pod) => boolean,
): number[] {
  const candidates = orderedIndexes.slice(0, Math.abs(diffs.updateNum));
  let unavailable = 0;
  let targetUnavailable = 0;
  for (const p of pods) {
    if (isAvailable(p)) continue;
    unavailable++;
    if (isPodAtRevision(p, targetRevision)) targetUnavailable++;
  }
  let accepted = 0;
  for (const i of candidates) {
    if (targetUnavailable + accepted >= diffs.updateMaxUnavailable) break;
    if (isAvailable(pods[i] as Pod)) {
      if (unavailable >= diffs.updateMaxUnavailable) break;
      unavailable++;
    }
    accepted++;
  }
  return candidates.slice(0, accepted);
}

export interface UpdatePlanOptions {
  now: Date;
  /** Gate `CloneSetPartitionRollback`. */
  partitionRollback?: boolean;
}

/** The pods to update this round, in order, and the revision they go to. */
export interface UpdatePlan {
  diffs: ExpectationDiffs;
  /** `update` (updateNum > 0) or `current` (rollback by partition). */
  target: 'update' | 'current';
  targetRevision: string;
  /** The pods to update now, in order (each goes through the lifecycle step, then in place or recreate). */
  pods: Pod[];
}

/**
 * Steps 2–7 of CloneSet `Update` after the per-pod refresh: `undefined` when nothing is to be updated (OnDelete,
 * paused, or `updateNum == 0`).
 */
export function planUpdate(
  spec: CloneSetRolloutSpec,
  pods: readonly Pod[],
  currentRevision: string,
  updateRevision: string,
  options: UpdatePlanOptions,
): UpdatePlan | undefined {
  if (spec.updateStrategy?.type === ON_DELETE || spec.updateStrategy?.paused) return undefined;
  const diffs = calculateDiffsWithExpectation(spec, pods, currentRevision, updateRevision, {
    now: options.now,
    ...(options.partitionRollback ? { partitionRollback: true } : {}),
  });
  if (diffs.updateNum === 0) return undefined;
  const target = diffs.updateNum > 0 ? 'update' : 'current';
  const targetRevision = target === 'update' ? updateRevision : currentRevision;
  const ordered = sortUpdateIndexes(
    pods,
    updateCandidates(pods, updateRevision, diffs.updateNum),
    spec.updateStrategy,
  );
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const limited = limitUpdateIndexes(pods, ordered, diffs, targetRevision, (p) =>
    isCloneSetPodAvailable(p, minReadySeconds, options.now),
  );
  return { diffs, target, targetRevision, pods: limited.map((i) => pods[i] as Pod) };
}
