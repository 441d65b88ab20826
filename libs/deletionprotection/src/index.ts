export {
  DELETION_PROTECTION_KEY,
  FORBIDDEN,
  PROTECTION_ALWAYS,
  PROTECTION_CASCADING,
  crdDeletionProblem,
  crdListVersion,
  crdNeedsObjects,
  isClaimBound,
  isPodActive,
  namespaceDeletionProblem,
  podOwnerDeletionProblem,
  protectionOf,
  refusalMessage,
  replicasOf,
  workloadDeletionProblem,
  type Protection,
} from './decisions.js';
export {
  CONTROLLER_NAME,
  DELETION_PROTECTION_FEATURE_GATES,
  effectiveGates,
  type DeletionProtectionGate,
} from './keys.js';
export {
  ALWAYS_POLICY_NAME,
  ALWAYS_PROTECTED,
  REPLICAS_POLICY_NAME,
  REPLICAS_WORKLOADS,
  deletionProtectionPolicies,
} from './policy.js';
export { DELETION_PROTECTION_POD_FIELDS, busLookups, isClaimKept, isPodKept } from './lookups.js';
export {
  OLD_NOT_BEING_DELETED,
  VALIDATE_DELETION_PROTECTION_PATH,
  deletionProblem,
  deletionProtectionValidator,
  deletionProtectionWebhookConfigurations,
  type DeletionLookups,
  type DeletionProtectionOptions,
} from './webhooks.js';
