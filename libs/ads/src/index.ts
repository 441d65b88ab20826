export * from './daemonset-object.js';
export * from './planning/index.js';
export { CONTROLLER_NAME, REASONS, messages } from './events.js';
export { DaemonSetReconciler, type DaemonSetReconcilerDeps } from './reconciler.js';
export { specProblem } from './spec-guard.js';
export {
  DAEMONSET_OWNER,
  daemonSetsForNodeChange,
  daemonSetsForOrphanChange,
  isDaemonSetPodOrOrphan,
  nodeChangeMatters,
  owningDaemonSet,
} from './handlers.js';
export {
  DAEMONSET_WEBHOOK_MATCH_CONDITIONS,
  MUTATE_DAEMONSET_PATH,
  VALIDATE_DAEMONSET_PATH,
  daemonSetDefaulter,
  daemonSetValidator,
  daemonSetWebhookConfigurations,
} from './webhooks.js';
export { daemonSetPreDownloadIgnore, preDownloadStep, type PreDownloadStep } from './image-predownload.js';
export { DAEMONSET_POLICY, daemonSetAdmissionPolicies } from './admission-policy.js';
export {
  DAEMONSET_PARITY_CASES,
  DAEMONSET_PROBE,
  daemonSetCase,
  type DaemonSetValidationCase,
} from './admission-policy.cases.js';
