export {
  CLONESET_FEATURE_GATES,
  CLONESET_GVK,
  CONTROLLER_NAME,
  CloneSetReconciler,
  cloneSetKey,
  rolloutSpec,
  type CloneSetFeatureGates,
  type CloneSetObject,
  type CloneSetReconcilerDeps,
  type KubeWriter,
  type ObjectReader,
} from './reconciler.js';
export { computeStatus, statusChanged, type ComputedCloneSetStatus, type StatusInput } from './status.js';
export { messages } from './events.js';
export {
  CLONESET_OWNER,
  cloneSetsForOrphan,
  cloneSetsForOrphanChange,
  isCloneSetPodOrOrphan,
  owningCloneSet,
} from './handlers.js';
export {
  CLONESET_WEBHOOK_MATCH_CONDITIONS,
  MUTATE_CLONESET_PATH,
  VALIDATE_CLONESET_PATH,
  cloneSetDefaulter,
  cloneSetValidator,
  cloneSetWebhookConfigurations,
  type PodLookup,
} from './webhooks.js';
export { syncProgressing, type ProgressingInput, type WorkloadCondition } from './progressing.js';
export { cloneSetPreDownloadIgnore } from './image-predownload.js';
export { activeHolds, syncHolds, type HoldFacts, type HoldStarts, type RolloutHold } from '@regatta/workload';
export { CLONESET_POLICY, cloneSetAdmissionPolicies } from './admission-policy.js';
export { CLONESET_PARITY_CASES, CLONESET_PROBE, cloneSetCase, type ValidationCase } from './admission-policy.cases.js';
