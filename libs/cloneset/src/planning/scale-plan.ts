/**
 * CloneSet `Scale` (`pkg/controller/cloneset/sync/cloneset_scale.go`) as one decision per reconcile: cancel deletions, create pods, delete pods, or nothing.
 * `none` means scaling did nothing and the update step may run; any other action ends the reconcile's mutations.
 */
import type { Labels } from '@regatta/kube';
import {
  type DeleteStep,
  LifecycleState,
  type Pod,
  canCancelPreparingDelete,
  deleteStep,
  getPodLifecycleState,
} from '@regatta/lifecycle';
import {
  isCloneSetPodAvailable,
  isCloneSetPodReady,
  choosePodsToDelete,
  isPodUpdate,
  splitPodsByUpdate,
  isSpecifiedDelete,
  type CloneSetRolloutSpec,
} from '@regatta/rollout';
import { type ExpectationDiffs, calculateDiffsWithExpectation } from './diff.js';
import { type RandomSource, availableInstanceIds } from './instance-id.js';
import { type PersistentVolumeClaim, claimsOfPod } from './pvc.js';

/** One pod to create: its instance id and which revision's template to use. */
export interface PodCreation {
  id: string;
  revision: 'current' | 'update';
}

/** One pod to delete: what the lifecycle makes of it, and the claims deleted with it (for `step.action === 'delete'`). */
export interface PodDeletion {
  pod: Pod;
  step: DeleteStep;
  pvcs: PersistentVolumeClaim[];
}

/** The scale decision. `diffs` is the scale-flavour diff (absent for `cancelPreparingDelete`, decided before it). */
export type ScalePlan =
  | {
      action: 'none';
      diffs?: ExpectationDiffs;
      reason: 'nothing' | 'scaleUpLimited' | 'waitingForDeletions' | 'deleteReadyLimited';
      scaleUpLimited: boolean;
    }
  /** Move these PreparingDelete pods back to `PreparingNormal` (replicas were raised again). */
  | { action: 'cancelPreparingDelete'; pods: Pod[] }
  /** Create these pods (slow start), the first ones at the current revision. */
  | { action: 'create'; diffs: ExpectationDiffs; creations: PodCreation[]; scaleUpLimited: boolean }
  /** Delete these pods (or move them to PreparingDelete, per `step`). */
  | {
      action: 'delete';
      diffs: ExpectationDiffs;
      reason: 'preparingDelete' | 'specifiedDelete' | 'scaleDown';
      deletions: PodDeletion[];
      scaleUpLimited: boolean;
    };

export interface ScaleInput {
  spec: CloneSetRolloutSpec;
  /** Active pods of the CloneSet. */
  pods: readonly Pod[];
  /** The CloneSet's claims (after the clean-up when reuse is disabled). */
  pvcs: readonly PersistentVolumeClaim[];
  currentRevision: string;
  updateRevision: string;
}

export interface ScaleOptions {
  now: Date;
  random: RandomSource;
  /** Gate `PreparingUpdateAsUpdate`. */
  preparingUpdateAsUpdate?: boolean;
  /** Gate `CloneSetPartitionRollback`. */
  partitionRollback?: boolean;
  /** Flag or v1alpha1 label excluding PreparingDelete pods from counting. */
  excludePreparingDelete?: boolean;
  /** Node labels for the spread-constraint ranker (undefined = node not found). */
  nodeLabels?: (nodeName: string) => Labels | undefined;
}

function topologyKeys(spec: CloneSetRolloutSpec): { topologyKey: string }[] {
  const constraints = spec.template?.spec?.['topologySpreadConstraints'];
  if (!Array.isArray(constraints)) return [];
  return constraints.flatMap((c: unknown) => {
    const key =
      typeof c === 'object' && c !== null ? (c as Record<string, unknown>)['topologyKey'] : undefined;
    return typeof key === 'string' ? [{ topologyKey: key }] : [];
  });
}

/**
 * Pods one round creates at most, as the ReplicaSet controller's `burstReplicas`: the rest come in the next rounds,
 * once the cache shows these. Upstream plans every missing pod at once; with `replicas` near int32's maximum that
 * meant two billion instance ids, a loop that held the program for minutes (docs/reliability.md finding 17).
 */
export const MAX_CREATIONS_PER_ROUND = 500;

/** Plans one scale step. */
export function planScale(input: ScaleInput, options: ScaleOptions): ScalePlan {
  const { spec, pods, pvcs } = input;
  const podsToDelete = spec.scaleStrategy?.podsToDelete;
  const lifecycle = spec.lifecycle;
  const specified = pods.filter((p) => isSpecifiedDelete(p, podsToDelete));
  const preDeleting = pods.filter((p) => getPodLifecycleState(p) === LifecycleState.PreparingDelete);
  const numToDelete = new Set([...specified, ...preDeleting]).size;

  // 1. bring PreparingDelete pods back when replicas were raised again
  if (canCancelPreparingDelete(lifecycle)) {
    let diff = (spec.replicas ?? 1) - pods.length + numToDelete;
    const back: Pod[] = [];
    for (const p of preDeleting) {
      if (diff <= 0) break;
      if (isSpecifiedDelete(p, podsToDelete)) continue;
      back.push(p);
      diff--;
    }
    if (back.length > 0) return { action: 'cancelPreparingDelete', pods: back };
  }

  // 2. the diff, scale flavour
  const updateOpts = { preparingUpdateAsUpdate: options.preparingUpdateAsUpdate ?? false };
  const diffs = calculateDiffsWithExpectation(spec, pods, input.currentRevision, input.updateRevision, {
    now: options.now,
    isPodUpdate: (p, rev) => isPodUpdate(p, rev, updateOpts),
    ...(options.partitionRollback ? { partitionRollback: true } : {}),
    ...(options.excludePreparingDelete ? { excludePreparingDelete: true } : {}),
  });
  const scaleUpLimited = diffs.scaleUpNum > diffs.scaleUpLimit;

  // 3. scale out
  if (diffs.scaleUpNum > 0) {
    const ids = availableInstanceIds(
      Math.min(diffs.scaleUpLimit, MAX_CREATIONS_PER_ROUND),
      pods,
      pvcs,
      options.random,
    );
    const current = Math.min(diffs.scaleUpNumOldRevision, ids.length);
    const creations = ids.map((id, i): PodCreation => ({ id, revision: i < current ? 'current' : 'update' }));
    if (creations.length === 0) return { action: 'none', diffs, reason: 'scaleUpLimited', scaleUpLimited };
    return { action: 'create', diffs, creations, scaleUpLimited };
  }

  const deletion = (p: Pod): PodDeletion => {
    const step = deleteStep(p, lifecycle);
    return { pod: p, step, pvcs: step.action === 'delete' ? claimsOfPod(p, pvcs) : [] };
  };

  // 4. pods in PreparingDelete whose hook is released
  const released = preDeleting.map(deletion).filter((d) => d.step.action === 'delete');
  if (released.length > 0)
    return { action: 'delete', diffs, reason: 'preparingDelete', deletions: released, scaleUpLimited };

  // 5. specified deletes, ready ones within deleteReadyLimit
  let readyLimit = diffs.deleteReadyLimit;
  const withinLimit = (candidates: readonly Pod[]): Pod[] =>
    candidates.filter((p) => {
      if (!isCloneSetPodReady(p, options.now)) return true;
      if (readyLimit <= 0) return false;
      readyLimit--;
      return true;
    });
  const specifiedNow = withinLimit(specified.filter((p) => !preDeleting.includes(p)));
  if (specifiedNow.length > 0)
    return {
      action: 'delete',
      diffs,
      reason: 'specifiedDelete',
      deletions: specifiedNow.map(deletion),
      scaleUpLimited,
    };

  // 6. scale in
  if (diffs.scaleDownNum > 0) {
    if (numToDelete > 0) return { action: 'none', diffs, reason: 'waitingForDeletions', scaleUpLimited };
    const { updated, notUpdated } = splitPodsByUpdate(pods, input.updateRevision, updateOpts);
    const minReadySeconds = spec.minReadySeconds ?? 0;
    const victims = choosePodsToDelete({
      total: diffs.scaleDownNum,
      oldRevision: diffs.scaleDownNumOldRevision,
      notUpdatedPods: notUpdated,
      updatedPods: updated,
      spreadConstraints: topologyKeys(spec),
      ...(options.nodeLabels ? { nodeLabels: options.nodeLabels } : {}),
      isAvailable: (p) => isCloneSetPodAvailable(p, minReadySeconds, options.now),
    });
    const deletions = withinLimit(victims).map(deletion);
    if (deletions.length === 0)
      return { action: 'none', diffs, reason: 'deleteReadyLimited', scaleUpLimited };
    return { action: 'delete', diffs, reason: 'scaleDown', deletions, scaleUpLimited };
  }
  return { action: 'none', diffs, reason: 'nothing', scaleUpLimited };
}
