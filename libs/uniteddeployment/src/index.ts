// Errors
export { ReplicaAllocationError, SubsetReplicasError, UnitedDeploymentError } from './errors.js';

// Replica allocation (pure)
export * from './allocation/index.js';

// Admission (pure defaulting and validation, the handlers and their configurations)
export * from './webhooks/index.js';

// Subset workloads, revisions and the reconciler
export * from './keys.js';
export type * from './types.js';
export { SUBSET_KINDS, subsetKindOf, workloadTemplateOf, type SubsetKind, type SubsetReaderName, type TemplateField } from './subset/kinds.js';
export { buildSubsetWorkload, subsetPrefix, type SubsetBuildInput } from './subset/build.js';
export { placeInSubset } from './subset/node-affinity.js';
export { strategicMergePodTemplate } from './subset/pod-template-patch.js';
export { readSubset, type SubsetView } from './subset/read.js';
export type { SubsetWorkload } from './subset/workload.js';
export { planSubsets, updateReason, type SubsetTarget, type SubsetsPlan } from './planning/plan.js';
export { computeStatus, initSubsetStatuses, statusChanged, statusMergePatch, withUpdatedCondition, type StatusInput } from './planning/status.js';
export { newUdRevision } from './sync/revisions.js';
export { isSubsetPod, unitedDeploymentsForPod } from './handlers.js';
export { UnitedDeploymentReconciler, unitedDeploymentKey, type UnitedDeploymentReconcilerDeps } from './reconciler.js';
export { INVALID_SPEC_REASON, specProblem } from './spec-guard.js';
