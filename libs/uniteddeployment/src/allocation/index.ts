export { parseSubsetReplicas, parseSubsetReplicasOr } from './parse.js';
export { isAllocatable, type ExistingSubset, type ExistingSubsets } from './existing-subset.js';
export { allocateSpecific, specifiedSubsetReplicas } from './specific.js';
export { UNLIMITED_REPLICAS, allocateByMinMax, allocateMinMax, rawMinMax, type MinMax } from './min-max.js';
export { allocateAdaptive } from './adaptive.js';
export { allocateWithReservation } from './reservation.js';
export {
  allocateReplicas,
  allocatorKind,
  isAdaptive,
  nextPartitions,
  reservesUnschedulablePods,
  type AllocatorKind,
} from './allocate.js';
export { adaptiveTiming, soonest, type AdaptiveTiming } from './timing.js';
export { getSubsetCondition, setSubsetCondition, transitionTimeMs } from './subset-conditions.js';
export { pendingTimeout, updateTimeout, type TimeoutCheck } from './pod-timeouts.js';
export {
  defaultAdaptiveSubsetState,
  type AdaptiveSubsetInput,
  type AdaptiveSubsetState,
} from './adaptive-status.js';
export {
  checkPodReserved,
  conditionsAfterReservedAllocation,
  podReservedLabel,
  reservedSubsetState,
  type PodReservedCheck,
  type ReservedCheckContext,
  type ReservedSubsetInput,
  type ReservedSubsetState,
} from './reserved-status.js';
