export {
  CONTAINERS_READY,
  POD_READY,
  getContainerStatus,
  getPodCondition,
  hasFinalizer,
  hasReadinessGate,
  isPodActive,
  isPodReady,
  isPodScheduled,
  podAnnotations,
  podLabels,
  withReadinessGate,
  type Container,
  type ContainerStatus,
  type EnvVar,
  type EnvVarSource,
  type Pod,
  type PodCondition,
  type PodReadinessGate,
  type PodSpec,
  type PodStatus,
} from './pod.js';
export { recomputePodReady, setPodCondition, withPodConditions } from './pod-conditions.js';
export {
  KRUISE_POD_READY,
  addNotReadyKey,
  formatNotReadyKeys,
  notReadyKeys,
  removeNotReadyKey,
  type NotReadyKey,
} from './pod-readiness.js';
export {
  LIFECYCLE_STATE_KEY,
  LIFECYCLE_TIMESTAMP_KEY,
  LIFECYCLE_USER_AGENT,
  LifecycleState,
  PRE_DELETE_HOOK_KEY,
  PRE_UPDATE_HOOK_KEY,
  type LifecycleStateType,
} from './keys.js';
export {
  isHookBlocking,
  isHookMarkPodNotReady,
  isLifecycleMarkPodNotReady,
  isPodAllHooked,
  isPodHooked,
  type Lifecycle,
  type LifecycleHook,
  type LifecycleHookName,
} from './hooks.js';
export {
  getPodLifecycleState,
  isLifecycleStateAvailable,
  setPodLifecycle,
  transition,
  type LifecycleTransition,
  type TransitionOptions,
} from './state.js';
export {
  LifecycleStateError,
  canCancelPreparingDelete,
  deleteStep,
  inPlaceUpdateStep,
  refreshLifecycleState,
  type DeleteStep,
  type InPlaceUpdateStep,
  type RefreshFacts,
} from './machine.js';
export {
  LifecycleControl,
  patchPod,
  writePodConditions,
  writePodConditionsAndMetadata,
  type PodWriteDeps,
  type PodWriter,
} from './lifecycle-control.js';
