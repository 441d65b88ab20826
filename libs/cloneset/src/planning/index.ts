/**
 * CloneSet's own planning, pure (OpenKruise `pkg/controller/cloneset/sync/`): the expectation diffs, the scale and
 * update plans, instance ids and pod names, and PVC naming. What every workload shares (update order, deletion
 * order, active pods, specified delete, slow start) is in `@regatta/rollout`.
 */
export {
  calculateDiffsWithExpectation,
  emptyDiffs,
  isDiffsEmpty,
  resolveRolloutParams,
  type DiffOptions,
  type ExpectationDiffs,
} from './diff.js';
export {
  ON_DELETE,
  limitUpdateIndexes,
  planUpdate,
  updateCandidates,
  type UpdatePlan,
  type UpdatePlanOptions,
} from './update-plan.js';
export {
  INSTANCE_ID_LABEL,
  INSTANCE_ID_LENGTH,
  InstanceIdError,
  availableInstanceIds,
  generateInstanceId,
  instanceIdOf,
  podNameFor,
  type RandomSource,
} from './instance-id.js';
export {
  claimName,
  claimOwnedByPod,
  claimsForInstance,
  claimsOfPod,
  claimsToCreate,
  planPvcCleanup,
  volumesWithClaims,
  type ClaimOwner,
  type PersistentVolumeClaim,
  type PvcCleanup,
  type Volume,
} from './pvc.js';
export { newCloneSetClaims, newCloneSetPod, type NewPodInput } from './new-pod.js';
export {
  planScale,
  type PodCreation,
  type PodDeletion,
  type ScaleInput,
  type ScaleOptions,
  type ScalePlan,
} from './scale-plan.js';
