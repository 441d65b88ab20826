/** Well-known keys of UnitedDeployment (OpenKruise `apis/apps/v1alpha1/uniteddeployment_types.go`, `well_known_labels.go`). */

/** Events' `source.component` (OpenKruise's controller name). */
export const CONTROLLER_NAME = 'uniteddeployment-controller';
/** On every subset workload and its pods: the subset's name. */
export const SUBSET_NAME_LABEL = 'apps.kruise.io/subset-name';
/** On every subset workload: `subset.patch` as raw JSON ('' when none). */
export const SUBSET_PATCH_ANNOTATION = 'apps.kruise.io/subset-patch';
/** On subset workloads and their pods: the UnitedDeployment revision they were built from. */
export const UD_REVISION_LABEL = 'apps.kruise.io/controller-revision-hash';
/** Reservation mode: `"true"` on a pod kept in an unschedulable subset while a temporary substitute runs elsewhere. */
export const RESERVED_POD_LABEL = 'apps.kruise.io/united-deployment-reserved-pod';
/** Label of ControllerRevisions: the hash of their data. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

/** The kind the controller reconciles (v1alpha1: the version the seeds write and the bus mirrors). */
export const UNITED_DEPLOYMENT_GVK = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' } as const;

/** Condition types of `status.conditions`. */
export const UnitedDeploymentConditions = {
  SubsetProvisioned: 'SubsetProvisioned',
  SubsetUpdated: 'SubsetUpdated',
  SubsetFailure: 'SubsetFailure',
  UnitedDeploymentUpdated: 'UnitedDeploymentUpdated',
} as const;

/** Condition type of `status.subsetStatuses[].conditions`. */
export const SUBSET_SCHEDULABLE = 'Schedulable';

/** Event reasons, as OpenKruise builds them (`Failed%s`/`Successful%s`; two carry a space). */
export const REASONS = {
  SuccessfulUpdateSubset: 'SuccessfulUpdateSubset',
  FailedUpdateSubset: 'FailedUpdateSubset',
  FailedRevisionProvision: 'FailedRevisionProvision',
  FailedFindSubsets: 'FailedFindSubsets',
  FailedFindSubsetsSpaced: 'Failed FindSubsets',
  FailedDeleteDuplicatedSubsets: 'FailedDeleteDuplicatedSubsets',
  FailedSpecifySubsetReplicas: 'Failed SpecifySubsetReplicas',
  RevisionUpdating: 'UnitedDeploymentRevisionUpdating',
  RevisionUpdated: 'UnitedDeploymentRevisionUpdated',
} as const;

/** Adaptive scheduling defaults (seconds). */
export const DEFAULT_RESCHEDULE_CRITICAL_SECONDS = 30;
export const DEFAULT_UNSCHEDULABLE_DURATION = 300;
export const DEFAULT_UD_REVISION_HISTORY_LIMIT = 10;
