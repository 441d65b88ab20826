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
export { slowStartBatches } from './slow-start.js';
