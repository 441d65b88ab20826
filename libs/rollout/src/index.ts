export {
  DEFAULT_MAX_UNAVAILABLE,
  SCALING_EXCLUDE_PREPARING_DELETE_LABEL,
  type CloneSetRolloutSpec,
  type CloneSetScaleStrategy,
  type CloneSetUpdateStrategy,
  type UpdatePriorityStrategy,
  type UpdateScatterTerm,
} from './types.js';
export {
  isCloneSetPodAvailable,
  isCloneSetPodReady,
  isPodAvailable,
  isPodUpdateReady,
} from './availability.js';
export {
  SPECIFIED_DELETE_KEY,
  hasSpecifiedDeleteLabel,
  isSpecifiedDelete,
  prunePodsToDelete,
  specifiedDeletePatch,
} from './specified-delete.js';
export { isPodUpdate, splitPodsByUpdate } from './pod-update.js';
export {
  calculateDiffsWithExpectation,
  emptyDiffs,
  isDiffsEmpty,
  resolveRolloutParams,
  type DiffOptions,
  type ExpectationDiffs,
} from './diff.js';
export { compareActivePods, compareAfterOrZero, maxContainerRestarts, podReadyTime } from './active-pods.js';
export {
  HOSTNAME_LABEL,
  POD_DELETION_COST_ANNOTATION,
  choosePodsToDelete,
  compareForDeletion,
  podDeletionCost,
  sameNodeRanks,
  sortForDeletion,
  spreadConstraintRanks,
  type ChooseVictimsInput,
  type DeletionOrderOptions,
  type PodSpreadConstraint,
  type Ranks,
} from './deletion-order.js';
export {
  comparePriority,
  intFromStringSuffix,
  podOrderPriority,
  podWeightPriority,
  scatterByTerm,
  scatterTerms,
  sortByPriority,
  sortByScatter,
  sortUpdateIndexes,
} from './update-order.js';
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
export { slowStartBatches } from './slow-start.js';
export {
  planScale,
  type PodCreation,
  type PodDeletion,
  type ScaleInput,
  type ScaleOptions,
  type ScalePlan,
} from './scale-plan.js';
