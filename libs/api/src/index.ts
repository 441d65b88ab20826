// Group and versions
export { APPS_V1ALPHA1, APPS_V1BETA1, KRUISE_APPS_GROUP } from './group.js';

// Errors
export { CrdSchemaError, UnknownKindError } from './errors.js';

// Shared schemas
export { IntOrString, isIntOrStringSchema } from './schemas/int-or-string.js';
export { Int32, Int64, OpenStringEnum, StringMap, Time } from './schemas/scalars.js';
export { described } from './schemas/describe.js';
export { LabelSelectorRequirementSchema, LabelSelectorSchema, type LabelSelectorSpec } from './schemas/label-selector.js';
export { ObjectMetaSchema } from './schemas/object-meta.js';
export { WorkloadConditionSchema, type WorkloadCondition } from './schemas/condition.js';
export { PodTemplateSpecSchema, VolumeClaimTemplatesSchema } from './schemas/templates.js';
export { LifecycleHookSchema, LifecycleSchema, type Lifecycle, type LifecycleHook } from './schemas/lifecycle.js';
export {
  UpdatePriorityOrderTermSchema,
  UpdatePriorityStrategySchema,
  UpdatePriorityWeightTermSchema,
  type UpdatePriorityOrderTerm,
  type UpdatePriorityStrategy,
  type UpdatePriorityWeightTerm,
} from './schemas/update-priority.js';
export {
  UpdateScatterStrategySchema,
  UpdateScatterTermSchema,
  type UpdateScatterStrategy,
  type UpdateScatterTerm,
} from './schemas/scatter-strategy.js';
export { InPlaceUpdateStrategySchema, type InPlaceUpdateStrategy } from './schemas/in-place-update-strategy.js';
export { registerSchemaFormats } from './schemas/formats.js';

// core/v1 shapes read by Regatta (`Pod` is the repository's one pod type)
export type {
  Container,
  ContainerPort,
  ContainerState,
  ContainerStatus,
  EnvVar,
  EnvVarSource,
  HttpGetAction,
  KeyToPath,
  LifecycleHandler,
  ObjectFieldSelector,
  PersistentVolumeClaimTemplate,
  Pod,
  PodCondition,
  PodReadinessGate,
  PodSpec,
  PodStatus,
  PodTemplateSpec,
  Probe,
  PullPolicy,
  TemplateMeta,
  Volume,
  VolumeMount,
} from './core/pod-types.js';

// CloneSet
export {
  CLONESET_API_VERSION,
  CLONESET_KIND,
  CLONESET_UPDATE_STRATEGY_TYPES,
  CloneSetConditionTypes,
  CloneSetProgressReasons,
  CloneSetScaleStrategySchema,
  CloneSetSchema,
  CloneSetSpecSchema,
  CloneSetStatusSchema,
  CloneSetUpdateStrategySchema,
  DEFAULT_CLONESET_MAX_UNAVAILABLE,
  DEFAULT_CLONESET_REVISION_HISTORY_LIMIT,
  type CloneSet,
  type CloneSetScaleStrategy,
  type CloneSetSpec,
  type CloneSetStatus,
  type CloneSetUpdateStrategy,
  type CloneSetUpdateStrategyType,
} from './cloneset/types.js';
export { CLONESET_CRD } from './cloneset/crd.js';

// Advanced StatefulSet
export {
  DEFAULT_STATEFULSET_MAX_UNAVAILABLE,
  DEFAULT_STATEFULSET_REVISION_HISTORY_LIMIT,
  POD_MANAGEMENT_POLICIES,
  POD_UPDATE_POLICIES,
  PVC_RETENTION_POLICY_TYPES,
  RollingUpdateStatefulSetStrategySchema,
  STATEFULSET_API_VERSION,
  STATEFULSET_API_VERSION_V1ALPHA1,
  STATEFULSET_KIND,
  STATEFULSET_MAX_MIN_READY_SECONDS,
  STATEFULSET_UPDATE_STRATEGY_TYPES,
  StatefulSetConditionSchema,
  StatefulSetConditionTypes,
  StatefulSetOrdinalsSchema,
  StatefulSetPersistentVolumeClaimRetentionPolicySchema,
  StatefulSetScaleStrategySchema,
  StatefulSetSchema,
  StatefulSetSpecSchema,
  StatefulSetStatusSchema,
  StatefulSetUpdateStrategySchema,
  UnorderedUpdateStrategySchema,
  VOLUME_CLAIM_UPDATE_STRATEGY_TYPES,
  VolumeClaimStatusSchema,
  VolumeClaimUpdateStrategySchema,
  type PersistentVolumeClaimRetentionPolicyType,
  type PodManagementPolicy,
  type PodUpdatePolicy,
  type RollingUpdateStatefulSetStrategy,
  type StatefulSet,
  type StatefulSetCondition,
  type StatefulSetOrdinals,
  type StatefulSetPersistentVolumeClaimRetentionPolicy,
  type StatefulSetScaleStrategy,
  type StatefulSetSpec,
  type StatefulSetStatus,
  type StatefulSetUpdateStrategy,
  type StatefulSetUpdateStrategyType,
  type UnorderedUpdateStrategy,
  type VolumeClaimStatus,
  type VolumeClaimUpdateStrategy,
  type VolumeClaimUpdateStrategyType,
} from './statefulset/types.js';
export { STATEFULSET_CRD } from './statefulset/crd.js';
export { STATEFULSET_SHAPE, STATEFULSET_SPEC_SHAPE, statefulSetShapeErrors } from './statefulset/shape.js';
export {
  defaultStatefulSet,
  defaultStatefulSetForAdmission,
  type StatefulSetAdmissionDefaultingOptions,
  type StatefulSetDefaultingGates,
  type StatefulSetDefaultingOptions,
} from './statefulset/defaults.js';
export {
  STATEFULSET_NAME_MAX_LENGTH,
  STATEFULSET_RESERVED_TEMPLATE_LABELS,
  maxUnavailableErrors,
  reserveOrdinalsErrors,
  validateStatefulSet,
  validateStatefulSetObject,
} from './statefulset/validation.js';
export {
  STATEFULSET_FORBIDDEN_UPDATE_MESSAGE,
  STATEFULSET_MUTABLE_SPEC_FIELDS,
  statefulSetInPlaceOnlyViolation,
  validateStatefulSetUpdate,
  volumeClaimTemplateUpdateErrors,
  type StatefulSetValidationContext,
  type StorageClassInfo,
} from './statefulset/update-validation.js';
export {
  statefulSetAdmissionDefaults,
  statefulSetAdmissionErrors,
  type StatefulSetAdmission,
} from './statefulset/admission.js';
export {
  RESERVE_ORDINAL_RANGE_RE,
  parseOrdinalRange,
  replicaOrdinals,
  reservedOrdinals,
  type OrdinalRange,
  type ReservedOrdinals,
} from './statefulset/reserve-ordinals.js';
// Advanced DaemonSet
export {
  DAEMONSET_API_VERSION,
  DAEMONSET_CONTROLLER_NAME,
  DAEMONSET_KIND,
  DAEMONSET_ROLLING_UPDATE_TYPES,
  DAEMONSET_UPDATE_STRATEGY_TYPES,
  DAEMONSET_V1ALPHA1_API_VERSION,
  DAEMONSET_V1ALPHA1_ROLLING_UPDATE_TYPES,
  DEFAULT_DAEMONSET_BURST_REPLICAS,
  DEFAULT_DAEMONSET_MAX_SURGE,
  DEFAULT_DAEMONSET_MAX_UNAVAILABLE,
  DEFAULT_DAEMONSET_REVISION_HISTORY_LIMIT,
  DaemonSetConditionSchema,
  DaemonSetEventReasons,
  DaemonSetScaleStrategySchema,
  DaemonSetSchema,
  DaemonSetSpecSchema,
  DaemonSetStatusSchema,
  DaemonSetUpdateStrategySchema,
  DaemonSetUpdateStrategyV1alpha1Schema,
  DaemonSetV1alpha1Schema,
  DaemonSetV1alpha1SpecSchema,
  DaemonSetV1alpha1StatusSchema,
  RollingUpdateDaemonSetSchema,
  RollingUpdateDaemonSetV1alpha1Schema,
  SURGING_DEFAULT_MAX_SURGE,
  SURGING_DEFAULT_MAX_UNAVAILABLE,
  type DaemonSet,
  type DaemonSetCondition,
  type DaemonSetRollingUpdateType,
  type DaemonSetScaleStrategy,
  type DaemonSetSpec,
  type DaemonSetStatus,
  type DaemonSetUpdateStrategy,
  type DaemonSetUpdateStrategyType,
  type DaemonSetV1alpha1,
  type DaemonSetV1alpha1RollingUpdateType,
  type DaemonSetV1alpha1Spec,
  type DaemonSetV1alpha1Status,
  type RollingUpdateDaemonSet,
  type RollingUpdateDaemonSetV1alpha1,
} from './daemonset/types.js';
export { DAEMONSET_CRD } from './daemonset/crd.js';
export { DAEMONSET_SHAPE, DAEMONSET_SPEC_SHAPE, daemonSetShapeErrors } from './daemonset/shape.js';
export { daemonSetVersionOf, type DaemonSetVersion } from './daemonset/version.js';
export { defaultDaemonSet } from './daemonset/defaults.js';
export { validateDaemonSet, type DaemonSetValidationOptions } from './daemonset/validation.js';
export { DAEMONSET_MUTABLE_SPEC_FIELDS, validateDaemonSetUpdate } from './daemonset/update-validation.js';
export { daemonSetToV1alpha1, daemonSetToV1beta1, isPartitionedScaling } from './daemonset/conversion.js';
export {
  daemonSetRequestVersion,
  defaultDaemonSetForAdmission,
  validateDaemonSetAdmission,
  type DaemonSetAdmission,
} from './daemonset/admission.js';

// SidecarSet
export {
  DEFAULT_SIDECARSET_MAX_UNAVAILABLE,
  DEFAULT_SIDECARSET_PARTITION,
  DEFAULT_SIDECARSET_REVISION_HISTORY_LIMIT,
  DEFAULT_TARGET_CONTAINERS_NAME_REGEX,
  LocalObjectReferenceSchema,
  ObjectFieldSelectorSchema,
  POD_INJECT_POLICIES,
  ResourcesPolicySchema,
  SHARE_VOLUME_POLICY_TYPES,
  SIDECAR_UPGRADE_TYPES,
  SIDECARSET_API_VERSION,
  SIDECARSET_INJECT_REVISION_POLICIES,
  SIDECARSET_KIND,
  SIDECARSET_PATCH_POLICIES,
  SIDECARSET_UPDATE_STRATEGY_TYPES,
  SIDECARSET_V1ALPHA1_API_VERSION,
  ShareVolumePolicySchema,
  SidecarContainerFieldsSchema,
  SidecarContainerSchema,
  SidecarContainerUpgradeStrategySchema,
  SidecarSetInjectRevisionSchema,
  SidecarSetInjectionStrategySchema,
  SidecarSetPatchPodMetadataSchema,
  SidecarSetSchema,
  SidecarSetSpecSchema,
  SidecarSetStatusSchema,
  SidecarSetUpdateStrategySchema,
  SidecarSetV1alpha1Schema,
  SidecarSetV1alpha1SpecSchema,
  TARGET_CONTAINERS_MODES,
  TransferEnvVarSchema,
  type PodInjectPolicy,
  type ResourcesPolicy,
  type ShareVolumePolicy,
  type ShareVolumePolicyType,
  type SidecarContainer,
  type SidecarContainerFields,
  type SidecarContainerUpgradeStrategy,
  type SidecarContainerUpgradeType,
  type SidecarSet,
  type SidecarSetInjectRevision,
  type SidecarSetInjectRevisionPolicy,
  type SidecarSetInjectionStrategy,
  type SidecarSetPatchPodMetadata,
  type SidecarSetPatchPolicy,
  type SidecarSetSpec,
  type SidecarSetStatus,
  type SidecarSetUpdateStrategy,
  type SidecarSetUpdateStrategyType,
  type SidecarSetV1alpha1,
  type SidecarSetV1alpha1Spec,
  type TargetContainersMode,
  type TransferEnvVar,
} from './sidecarset/types.js';
export {
  SIDECARSET_UPGRADABLE_CONDITION,
  SidecarSetAnnotations,
  SidecarSetEnvs,
  SidecarSetLabels,
} from './sidecarset/keys.js';

export { SIDECARSET_CRD } from './sidecarset/crd.js';
export { SIDECARSET_SHAPE, SIDECARSET_SPEC_SHAPE, sidecarSetShapeErrors } from './sidecarset/shape.js';
export {
  sidecarSetRequestVersion,
  sidecarSetVersionOf,
  type SidecarSetVersion,
} from './sidecarset/version.js';
export {
  canonicalJson,
  isNativeSidecar,
  sidecarSetHash,
  sidecarSetHashAnnotations,
  sidecarSetHashWithoutImage,
} from './sidecarset/hash.js';
export { applySidecarSetSpecDefaults, defaultSidecarSet } from './sidecarset/defaults.js';
export { sidecarSetCustomVersion, sidecarSetToV1alpha1, sidecarSetToV1beta1 } from './sidecarset/conversion.js';
export { selectorsOverlap } from './sidecarset/selector-overlap.js';
export {
  parseResourceExpression,
  type ParsedResourceExpr,
  type ResourceExprNode,
} from './sidecarset/resource-expression.js';
export {
  canaryErrors,
  conflictErrors,
  patchMetadataWhitelistProblem,
  sidecarSetsOverlap,
  type PatchPodMetadataWhitelist,
  type PatchPodMetadataWhitelistRule,
  type SidecarSetRevisionRef,
  type SidecarSetValidationContext,
} from './sidecarset/context-rules.js';
export {
  SIDECARSET_NAME_MAX_LENGTH,
  sidecarSelectorErrors,
  validateSidecarSet,
  validateSidecarSetObject,
} from './sidecarset/validation.js';
export { containerUpdateErrors, validateSidecarSetUpdate } from './sidecarset/update-validation.js';
export {
  NAMESPACE_WARNING,
  VOLUME_TEMPLATES_WARNING,
  defaultSidecarSetForAdmission,
  validateSidecarSetAdmission,
  type SidecarSetAdmission,
  type SidecarSetMutation,
} from './sidecarset/admission.js';

// UnitedDeployment
export * from './uniteddeployment/index.js';

// ResourceDistribution
export {
  RESOURCE_DISTRIBUTION_API_VERSION,
  RESOURCE_DISTRIBUTION_CONDITION_TYPES,
  RESOURCE_DISTRIBUTION_GATE,
  RESOURCE_DISTRIBUTION_KIND,
  RESOURCE_DISTRIBUTION_SUCCEEDED_REASON,
  RESOURCE_DISTRIBUTION_SUPPORTED_KINDS,
  RESOURCE_DISTRIBUTION_SYSTEM_NAMESPACES,
  RESOURCE_DISTRIBUTION_V1ALPHA1_API_VERSION,
  ResourceDistributionAnnotations,
  ResourceDistributionConditionSchema,
  ResourceDistributionSchema,
  ResourceDistributionSpecSchema,
  ResourceDistributionStatusSchema,
  type ResourceDistribution,
  type ResourceDistributionCondition,
  type ResourceDistributionConditionType,
  type ResourceDistributionSpec,
  type ResourceDistributionStatus,
  type ResourceDistributionTargets,
} from './resourcedistribution/types.js';
export { RESOURCE_DISTRIBUTION_CRD } from './resourcedistribution/crd.js';
export { goJson, resourceHashCode } from './resourcedistribution/hash.js';
export {
  namespaceSelectorOf,
  resourceDistributionVersionOf,
  selectorFieldOf,
  type ResourceDistributionVersion,
} from './resourcedistribution/version.js';
export {
  EMPTY_RESOURCE,
  IMMUTABLE_RESOURCE,
  UNSUPPORTED_RESOURCE,
  decodeResource,
  dryRunErrors,
  isSupportedResource,
  resourceErrors,
  targetsErrors,
  validateResourceDistribution,
  type DryRunFailure,
} from './resourcedistribution/validation.js';
export {
  defaultResourceDistributionForAdmission,
  validateResourceDistributionAdmission,
  type ResourceDistributionAdmission,
} from './resourcedistribution/admission.js';

// CRD generation
export {
  AGE_COLUMN,
  type CrdDefinition,
  type CrdVersionDefinition,
  type CustomResourceDefinition,
  type JsonSchemaProps,
  type PrinterColumn,
  type ScaleSubresource,
} from './crd/definition.js';
export { REPLICAS_SCALE, TEMPLATE_WIDE_COLUMNS, intColumn } from './crd/columns.js';
export { structuralSchemaViolations, toStructuralSchema } from './crd/structural.js';
export { buildCrd, crdFileName } from './crd/build.js';
export { CRD_FILE_HEADER, renderCrdYaml } from './crd/render.js';
export { CRD_DEFINITIONS, crdDefinition, generateCrds, renderCrdFiles } from './crd/registry.js';

// Well-known keys
export {
  Annotations,
  ContainerEnvs,
  Finalizers,
  Labels,
  LifecycleStates,
  PodConditionTypes,
  type LifecycleState,
} from './well-known-keys.js';

// Defaulting
export {
  DEFAULT_SCHEDULER_NAME,
  DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
  DEFAULT_TERMINATION_MESSAGE_PATH,
  DEFAULT_TOKEN_EXPIRATION_SECONDS,
  DEFAULT_VOLUME_MODE,
  applyKruisePodSpecDefaults,
  defaultKruisePodSpec,
} from './core/pod-defaults.js';
export { defaultPullPolicyForImage, parseImageReference, type ImageReference } from './core/image-name.js';
export {
  defaultCloneSet,
  defaultCloneSetForAdmission,
  type CloneSetAdmissionDefaultingOptions,
  type CloneSetDefaultingOptions,
} from './cloneset/defaults.js';

// Validation
export { validateAnnotations, validateLabels, validateObjectMeta } from './core/meta-validation.js';
export { isValidPortName, validatePodSpecSubset, validatePodTemplateSpecSubset } from './core/pod-template-validation.js';
export { jsonTypeOf, shapeErrors, shapes, typeError, type Shape } from './core/shape.js';
export { LABEL_SELECTOR_SHAPE, POD_SPEC_SHAPE, POD_TEMPLATE_SHAPE } from './core/pod-template-shape.js';
export { CLONESET_SHAPE, CLONESET_SPEC_SHAPE, cloneSetShapeErrors } from './cloneset/shape.js';
export { CLONESET_RESERVED_TEMPLATE_LABELS, reservedTemplateLabelErrors } from './cloneset/reserved-labels.js';
export {
  CLONESET_NAME_MAX_LENGTH,
  podsToDeleteToCheck,
  priorityStrategyProblem,
  scatterStrategyProblem,
  validateCloneSet,
  validateCloneSetObject,
  type CloneSetValidationContext,
} from './cloneset/validation.js';
export {
  CLONESET_MUTABLE_SPEC_FIELDS,
  inPlaceOnlyViolation,
  validateCloneSetUpdate,
  withoutEmpty,
} from './cloneset/update-validation.js';

// ImagePullJob and NodeImage
export * from './imagepulljob/index.js';

// AdvancedCronJob (and the batch/v1 Job fields it creates)
export * from './advancedcronjob/index.js';
export * from './nodeimage/index.js';
export * from './containerrecreaterequest/index.js';
export * from './podunavailablebudget/index.js';

// BroadcastJob
export * from './broadcastjob/index.js';

// The typed kind registry (docs/adr/0071-one-typed-kind-registry.md)
export { KINDS, OTHER_MIRRORED_KINDS, POD_GVK } from './kinds.js';

// WorkloadSpread
export * from './workloadspread/index.js';

// a PodUnavailableBudget's and a WorkloadSpread's targetRef, compared as upstream's IsReferenceEqual
export { groupOf, isGroupVersion, sameTarget } from './core/target-reference.js';
