export {
  CONTAINER_BARRIER_ENV,
  CONTAINER_LAUNCH_PRIORITY_KEY,
  CONTAINER_PRIORITY_ENV,
  EXCLUDED_METADATA_ENVS,
  INPLACE_UPDATE_GRACE_KEY,
  INPLACE_UPDATE_GRACE_KEY_OLD,
  INPLACE_UPDATE_READY,
  INPLACE_UPDATE_STATE_KEY,
  INPLACE_UPDATE_STATE_KEY_OLD,
  RUNTIME_CONTAINERS_META_KEY,
  START_INPLACE_UPDATE_REASON,
} from './keys.js';
export { InPlaceUpdateAnnotationError, InPlaceUpdateStateError, MetadataPatchError } from './errors.js';
export {
  hasInPlaceUpdateReadinessGate,
  inPlaceUpdateCondition,
  injectInPlaceUpdateReadinessGate,
  isInPlaceUpdateReady,
} from './readiness.js';
export {
  containerPriorities,
  envFromMetadataHash,
  isContainerReferenceToMeta,
  splitSubscriptedPath,
} from './container-meta.js';
export {
  formatInPlaceUpdateState,
  formatObjectMeta,
  hasNextBatch,
  inPlaceUpdateStateAnnotation,
  parseInPlaceUpdateState,
  readInPlaceUpdateState,
  type ContainerRefMetadata,
  type InPlaceUpdateContainerBatch,
  type InPlaceUpdateState,
} from './state.js';
export {
  formatUpdateSpec,
  inPlaceUpdateGraceAnnotation,
  isInGracePeriod,
  parseUpdateSpec,
  type UpdateSpec,
} from './update-spec.js';
export { applyMetadataPatch, createMetadataPatch } from './metadata-patch.js';
export {
  calculateInPlaceUpdateSpec,
  canUpdateInPlace,
  type InPlaceUpdateDecision,
  type InPlaceUpdateOptions,
  type NotInPlaceReason,
} from './calculate-spec.js';
export { applyUpdateSpecToPod, type PatchedPod } from './patch-spec.js';
export {
  planInPlaceUpdate,
  type InPlaceUpdatePlan,
  type NotInPlace,
  type PlanInPlaceUpdateOptions,
} from './update.js';
export { refreshInPlaceUpdate, type InPlaceRefresh, type RefreshOptions } from './refresh.js';
export {
  checkContainersUpdateCompleted,
  checkPodUpdateCompleted,
  type CompletionCheck,
} from './completion.js';
export {
  containersNeedingEnv,
  kubeletContainerHash,
  parseEnvOutput,
  planContainerMetaSet,
  runningEnvFromMetadataHash,
  type ContainerMetaSetPlan,
  type ObservedContainer,
} from './container-meta-set.js';
export {
  formatRuntimeContainersMeta,
  readRuntimeContainersMeta,
  type RuntimeContainerMeta,
} from './runtime-meta.js';
export {
  InPlaceUpdateControl,
  isResizeRefusal,
  type InPlaceUpdateControlDeps,
  type InPlaceRefreshResult,
  type InPlaceUpdateResult,
} from './inplace-update-control.js';
export {
  mergesWithReady,
  readyStatusWrite,
  type LifecycleAfterRefresh,
  type ReadyStatusWrite,
} from './ready-write.js';
export {
  POD_RESIZE_IN_PROGRESS,
  POD_RESIZE_PENDING,
  RESIZABLE_RESOURCES,
  checkResizeActuated,
  conditionsToWrite,
  isContainerResourcesPath,
  podQosClass,
  readContainerResources,
  readResourceOp,
  resizeInfeasible,
  resizeInfeasibleCondition,
  resizeInfeasibleConditionChanged,
  resizeMessages,
  withResizeInfeasibleCondition,
  RESIZE_INFEASIBLE_CONDITION,
  resizePatch,
  resizePending,
  resizeRestartsContainer,
  type ContainerResources,
  type QosClass,
  type ResourceOp,
} from './resize.js';
