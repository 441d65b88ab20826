/**
 * The keys the controller uses, named once in @regatta/api (OpenKruise `apis/apps/v1beta1/uniteddeployment_types.go`)
 * and re-exported under the names this library's code reads.
 */
import {
  DEFAULT_UNITED_DEPLOYMENT_REVISION_HISTORY_LIMIT,
  UNITED_DEPLOYMENT_API_VERSION,
  UNITED_DEPLOYMENT_CONTROLLER_NAME,
  UNITED_DEPLOYMENT_KIND,
  SUBSET_SCHEDULABLE_CONDITION,
  UnitedDeploymentAnnotations,
  UnitedDeploymentConditionReasons,
  UnitedDeploymentConditionTypes,
  UnitedDeploymentEventReasons,
  UnitedDeploymentLabels,
} from '@regatta/api';

/** Events' `source.component` (OpenKruise's controller name). */
export const CONTROLLER_NAME = UNITED_DEPLOYMENT_CONTROLLER_NAME;
/** On every subset workload and its pods: the subset's name. */
export const SUBSET_NAME_LABEL = UnitedDeploymentLabels.SubsetName;
/** On every subset workload: `subset.patch` as raw JSON ('' when none). */
export const SUBSET_PATCH_ANNOTATION = UnitedDeploymentAnnotations.SubsetPatch;
/** On subset workloads and their pods: the UnitedDeployment revision they were built from. */
export const UD_REVISION_LABEL = UnitedDeploymentLabels.ControllerRevisionHash;
/** Reservation mode: `"true"` on a pod kept in an unschedulable subset while a temporary substitute runs elsewhere. */
export const RESERVED_POD_LABEL = UnitedDeploymentLabels.ReservedPod;
/** Label of ControllerRevisions: the hash of their data. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
export const DEFAULT_UD_REVISION_HISTORY_LIMIT = DEFAULT_UNITED_DEPLOYMENT_REVISION_HISTORY_LIMIT;

/** The kind the controller reconciles: v1beta1, the stored version (OpenKruise's controller works on it). */
export const UNITED_DEPLOYMENT_GVK = { apiVersion: UNITED_DEPLOYMENT_API_VERSION, kind: UNITED_DEPLOYMENT_KIND } as const;

export const UnitedDeploymentConditions = UnitedDeploymentConditionTypes;
export const SUBSET_SCHEDULABLE = SUBSET_SCHEDULABLE_CONDITION;

/** Event and condition reasons. */
export const REASONS = {
  ...UnitedDeploymentEventReasons,
  RevisionUpdating: UnitedDeploymentConditionReasons.RevisionUpdating,
  RevisionUpdated: UnitedDeploymentConditionReasons.RevisionUpdated,
} as const;

/** The feature gates the UnitedDeployment program reads, with OpenKruise's defaults (`pkg/features/kruise_features.go`). */
export const UNITED_DEPLOYMENT_FEATURE_GATES = {
  /** No pod-spec defaults injected into the StatefulSet template. */
  TemplateNoDefaults: false,
} as const;
