export {
  ASTS_FEATURE_GATES,
  STATEFULSET_GVK,
  effectiveSpec,
  statefulSetKey,
  type AstsFeatureGates,
  type StatefulSetObject,
  type StatefulSetSpec,
  type StatefulSetStatus,
} from './statefulset-object.js';
export { StatefulSetReconciler, type StatefulSetReconcilerDeps } from './reconciler.js';
export { statefulSetPreDownloadIgnore } from './image-predownload.js';
export { CONTROLLER_NAME, messages } from './events.js';
export {
  STATEFULSET_OWNER,
  isStatefulSetPodOrOrphan,
  owningStatefulSet,
  statefulSetForResizedClaim,
  statefulSetsForOrphanChange,
} from './handlers.js';
export {
  MUTATE_STATEFULSET_PATH,
  STATEFULSET_WEBHOOK_MATCH_CONDITIONS,
  VALIDATE_STATEFULSET_PATH,
  statefulSetDefaulter,
  statefulSetValidator,
  statefulSetWebhookConfigurations,
  storageClassLookup,
  storageClassesFrom,
  type StatefulSetWebhookGates,
} from './webhooks.js';
export { specProblem } from './spec-guard.js';
export { statefulSetReconcilerOf, type StatefulSetProgramContext } from './program.js';
export { AstsError, ClaimRefsError, ClaimResizeError, ClaimsError, InPlaceOnlyError } from './errors.js';
export * as planning from './planning/index.js';
export { STATEFULSET_POLICY, statefulSetAdmissionPolicies } from './admission-policy.js';
export {
  STATEFULSET_PARITY_CASES,
  STATEFULSET_PROBE,
  statefulSetCase,
  type StatefulSetValidationCase,
} from './admission-policy.cases.js';
