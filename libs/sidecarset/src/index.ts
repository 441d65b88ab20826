export { CONTROLLER_NAME } from './controller-name.js';
export { injectSidecars, type InjectionInput } from './injection/inject.js';
export {
  isActivePod,
  matchSidecarSets,
  namespaceSelectorOf,
  podMatchesSidecarSet,
} from './injection/match.js';
export { versionToInject, restoreSidecarSet, pinnedRevision } from './injection/revision.js';
export { patchPodMetadata, jsonMergePatch } from './injection/patch-metadata.js';
export { buildSidecars, isInjectedContainer, mergedSidecar, type BuiltSidecars } from './injection/build.js';
export {
  hotUpgradeTwins,
  isHotUpgrade,
  versionAnnotation,
  versionAltAnnotation,
} from './injection/hot-upgrade.js';
export { mergeSidecarContainers, mergeVolumes, mergeSecrets, toContainer } from './injection/merge.js';
export { parseHashAnnotation, formatHashAnnotation, injectedList } from './injection/annotations.js';
export { isNativeSidecar } from './injection/native-sidecar.js';
export { InjectionError } from './injection/errors.js';
export type { AnySidecarSet, SidecarSetRevision, SidecarSetUpgradeSpec } from './injection/types.js';
export {
  LaunchPriorityError,
  ORDERED,
  barrierKey,
  barrierName,
  barrierPriority,
  launchPriorities,
  withLaunchBarriers,
} from './launch-priority/barrier-env.js';
export {
  LAUNCH_PRIORITY_COMPLETED_KEY,
  needsBarrier,
  nextBarrierStep,
  type BarrierStep,
} from './launch-priority/next-barrier.js';
export { MUTATE_POD_PATH, podDefaulter, type PodWebhookSources } from './webhooks/pod-webhook.js';
export {
  ALL_PODS_ENTRY,
  LAUNCH_PRIORITY_MATCH_CONDITION,
  MAX_POD_WEBHOOK_ENTRIES,
  POD_WEBHOOK_MODE_ANNOTATION,
  injects,
  podWebhookConfiguration,
  podWebhookConfigurationName,
  podWebhookEntryInStep,
} from './webhooks/pod-webhook-configuration.js';
export { podWebhookInStepCheck } from './webhooks/pod-webhook-in-step.js';
export { AdmittedSidecarSets, type AdmittedSidecarSetsOptions } from './webhooks/admitted-sidecarsets.js';
export {
  confirmation,
  liveRecords,
  recordsNeedingEntries,
  supersededBy,
  withAdmitted,
  type AdmittedRecord,
  type Confirmation,
} from './webhooks/admitted.js';
export { admitAndApply, storedSidecarSetRevisions } from './webhooks/effective-at-admission.js';
export {
  MUTATE_SIDECARSET_PATH,
  VALIDATE_SIDECARSET_PATH,
  sidecarSetDefaulter,
  sidecarSetValidator,
  sidecarSetWebhookConfigurations,
  type SidecarSetValidatorSources,
} from './webhooks/sidecarset-webhooks.js';
export { SIDECARSET_FEATURE_GATES, type SidecarSetFeatureGates } from './feature-gates.js';
// the upgrade controller (libs/sidecarset/src/upgrade)
export * from './upgrade/index.js';
export {
  BarrierReconciler,
  barrierRequestsForPodChange,
  isPodRequest,
  type BarrierReconcilerDeps,
} from './launch-priority/barrier-reconciler.js';

// the admission rules, checked again by the upgrade reconciler
export { INVALID_SPEC_REASON, specProblem } from './spec-guard.js';
export * from './admission-policy/index.js';

// the program's parts its declaration names (apps/sidecarset)
export {
  sidecarSetPodMapping,
  sidecarSetReconciler,
  sidecarSetWebhooks,
  type SidecarSetProgramContext,
  type SidecarSetReaders,
} from './program.js';
