/**
 * CloneSet's core algorithm (`calculateDiffsWithExpectation`, `pkg/controller/cloneset/sync/cloneset_sync_utils.go`): from the spec and the active pods, how many
 * pods to create or delete (and of which revision), how many may be deleted while ready, how much surge to use, and
 * how many pods to move to the update revision (or back to the current one).
 */
import { type IntOrString, partitionOf, scaleK8s } from '@regatta/kube';
import { LifecycleState, type Pod, getPodLifecycleState } from '@regatta/lifecycle';
import { isPodAtRevision } from '@regatta/revision';
import {
  isCloneSetPodAvailable,
  isSpecifiedDelete,
  type CloneSetRolloutSpec,
  DEFAULT_MAX_UNAVAILABLE,
} from '@regatta/rollout';

/** The result; every field is a non-negative count except `updateNum` (negative = roll back) and `updateMaxUnavailable`. */
export interface ExpectationDiffs {
  /** Pods missing: create this many (at most `scaleUpLimit` now). */
  scaleUpNum: number;
  /** Of the missing pods, how many should be at the current revision (may exceed `scaleUpNum`). */
  scaleUpNumOldRevision: number;
  /** Pods in excess beyond those already specified for deletion. */
  scaleDownNum: number;
  /** Of the excess, how many at the current revision (may exceed `scaleDownNum`). */
  scaleDownNumOldRevision: number;
  /** Creation limit from `scaleStrategy.maxUnavailable`. */
  scaleUpLimit: number;
  /** How many ready pods may be deleted (from `updateStrategy.maxUnavailable`). */
  deleteReadyLimit: number;
  /** Pods temporarily above `replicas`. */
  useSurge: number;
  /** The part of `useSurge` at the current revision. */
  useSurgeOldRevision: number;
  /** > 0: pods to move to the update revision; < 0: pods to move back to the current revision; 0: none. */
  updateNum: number;
  /** The most pods that may be unavailable while updating. */
  updateMaxUnavailable: number;
}

export interface DiffOptions {
  now: Date;
  /**
   * Which pods count as updated. Scale path: `isPodUpdate` with the `PreparingUpdateAsUpdate` gate; update path
   * (default): the revision comparison only.
   */
  isPodUpdate?: (pod: Pod, updateRevision: string) => boolean;
  /** Gate `CloneSetPartitionRollback` (default off). */
  partitionRollback?: boolean;
  /** Flag `--cloneset-scaling-exclude-preparing-delete` or the v1alpha1 label (the v1beta1 field is read from the spec). */
  excludePreparingDelete?: boolean;
}

const MAX_INT32 = 2147483647;

/** An empty result. */
export function emptyDiffs(): ExpectationDiffs {
  return {
    scaleUpNum: 0,
    scaleUpNumOldRevision: 0,
    scaleDownNum: 0,
    scaleDownNumOldRevision: 0,
    scaleUpLimit: 0,
    deleteReadyLimit: 0,
    useSurge: 0,
    useSurgeOldRevision: 0,
    updateNum: 0,
    updateMaxUnavailable: 0,
  };
}

/** True when every field is 0. */
export function isDiffsEmpty(d: ExpectationDiffs): boolean {
  return Object.values(d).every((v) => v === 0);
}

function scaled(v: IntOrString | null | undefined, total: number, roundUp: boolean): number {
  try {
    return scaleK8s(v, total, roundUp);
  } catch {
    // upstream ignores the error and uses 0 (the webhook rejects such values)
    return 0;
  }
}

/** The partition, maxSurge and maxUnavailable a spec resolves to (`pkg/controller/cloneset/sync/cloneset_sync_utils.go` rounding rules). */
export function resolveRolloutParams(spec: CloneSetRolloutSpec): {
  replicas: number;
  partition: number;
  maxSurge: number;
  maxUnavailable: number;
  scaleMaxUnavailable: number;
} {
  const replicas = spec.replicas ?? 1;
  const strategy = spec.updateStrategy;
  let partition = 0;
  let maxSurge = 0;
  let maxUnavailable: number;
  if (strategy) {
    if (strategy.partition != null) {
      try {
        partition = partitionOf(strategy.partition, replicas);
      } catch {
        partition = 0;
      }
    }
    if (strategy.maxSurge != null) maxSurge = strategy.paused ? 0 : scaled(strategy.maxSurge, replicas, true);
    maxUnavailable = scaled(strategy.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, replicas, maxSurge === 0);
  } else {
    maxUnavailable = scaled(DEFAULT_MAX_UNAVAILABLE, replicas, false);
  }
  const scaleMaxUnavailable = scaled(spec.scaleStrategy?.maxUnavailable ?? MAX_INT32, replicas, true);
  return { replicas, partition, maxSurge, maxUnavailable, scaleMaxUnavailable };
}

/** Signs differ strictly (`util.IsIntPlusAndMinus`). */
function oppositeSigns(a: number, b: number): boolean {
  return (a > 0 && b < 0) || (a < 0 && b > 0);
}

/** `calculateDiffsWithExpectation` over the active pods. */
export function calculateDiffsWithExpectation(
  spec: CloneSetRolloutSpec,
  pods: readonly Pod[],
  currentRevision: string,
  updateRevision: string,
  options: DiffOptions,
): ExpectationDiffs {
  const { replicas, partition, maxSurge, maxUnavailable, scaleMaxUnavailable } = resolveRolloutParams(spec);
  const isUpdated = options.isPodUpdate ?? ((p: Pod, rev: string) => isPodAtRevision(p, rev));
  const minReadySeconds = spec.minReadySeconds ?? 0;
  const podsToDelete = spec.scaleStrategy?.podsToDelete;

  const count = { new: 0, old: 0 };
  const active = { new: 0, old: 0 };
  const unavailable = { new: 0, old: 0 };
  const toDelete = { new: 0, old: 0 };
  const preDeleting = { new: 0, old: 0 };
  for (const p of pods) {
    const b = isUpdated(p, updateRevision) ? 'new' : 'old';
    count[b]++;
    if (getPodLifecycleState(p) === LifecycleState.PreparingDelete) {
      preDeleting[b]++;
      continue;
    }
    active[b]++;
    if (isSpecifiedDelete(p, podsToDelete)) toDelete[b]++;
    else if (!isCloneSetPodAvailable(p, minReadySeconds, options.now)) unavailable[b]++;
  }

  const res = emptyDiffs();
  let updateOldDiff = active.old - partition;
  let updateNewDiff = active.new - (replicas - partition);
  const totalUnavailable = preDeleting.new + preDeleting.old + unavailable.new + unavailable.old;
  if (updateRevision === currentRevision || !options.partitionRollback) {
    updateOldDiff = Math.max(updateOldDiff, 0);
    updateNewDiff = Math.min(updateNewDiff, 0);
  }

  if (maxSurge > 0) {
    let scaleSurge = 0;
    let scaleOldSurge = 0;
    const td = toDelete.new + toDelete.old;
    if (td > 0) {
      scaleSurge = Math.min(Math.max(totalUnavailable + td - maxUnavailable, 0), td);
      if (scaleSurge > toDelete.new) scaleOldSurge = scaleSurge - toDelete.new;
    }
    let updSurge = 0;
    let updOldSurge = 0;
    if (oppositeSigns(updateOldDiff, updateNewDiff)) {
      if (Math.abs(updateOldDiff) <= Math.abs(updateNewDiff)) {
        updSurge = Math.abs(updateOldDiff);
        if (updateOldDiff < 0) updOldSurge = updSurge;
      } else {
        updSurge = Math.abs(updateNewDiff);
        if (updateNewDiff > 0) updOldSurge = updSurge;
      }
    }
    if (scaleSurge >= updSurge) {
      res.useSurge = Math.min(maxSurge, scaleSurge);
      res.useSurgeOldRevision = Math.min(res.useSurge, scaleOldSurge);
    } else {
      res.useSurge = Math.min(maxSurge, updSurge);
      res.useSurgeOldRevision = Math.min(res.useSurge, updOldSurge);
    }
  }

  let curTotal = pods.length;
  let curOld = count.old;
  if (options.excludePreparingDelete || spec.scaleStrategy?.excludePreparingDelete) {
    curTotal -= preDeleting.old + preDeleting.new;
    curOld -= preDeleting.old;
  }
  const expTotal = replicas + res.useSurge;
  const expOld = partition + res.useSurgeOldRevision;

  if (expTotal - curTotal > 0) {
    res.scaleUpNum = expTotal - curTotal;
    res.scaleUpNumOldRevision = Math.max(expOld - curOld, 0);
    res.scaleUpLimit = Math.min(res.scaleUpNum, Math.max(scaleMaxUnavailable - totalUnavailable, 0));
  }
  const down = curTotal - toDelete.old - toDelete.new - expTotal;
  if (down > 0) {
    res.scaleDownNum = down;
    res.scaleDownNumOldRevision = Math.max(curOld - toDelete.old - expOld, 0);
  }
  if (toDelete.new > 0 || toDelete.old > 0 || res.scaleDownNum > 0) {
    res.deleteReadyLimit = Math.max(maxUnavailable + (pods.length - replicas) - totalUnavailable, 0);
  }

  res.updateNum = Math.abs(updateOldDiff) <= Math.abs(updateNewDiff) ? updateOldDiff : -updateNewDiff;
  if (res.updateNum !== 0) res.updateMaxUnavailable = maxUnavailable + pods.length - replicas;
  // normalize -0 from `-updateNewDiff`
  res.updateNum += 0;
  return res;
}
