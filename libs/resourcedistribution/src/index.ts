export { CONTROLLER_NAME } from './controller-name.js';
export { RESOURCE_DISTRIBUTION_FEATURE_GATES, type ResourceDistributionFeatureGates } from './feature-gates.js';
export {
  distributionsForNamespaceChange,
  includesNamespace,
  matchesTargets,
  namespacesForDistribution,
  selectorMatches,
  type NamespaceSets,
} from './matching.js';
export { desiredCopy, distributionRef, isControlledByDistribution, needsUpdate, storedContent } from './copies.js';
export {
  distributionConditions,
  distributionStatus,
  statusChanged,
  type NamespaceFailure,
  type RoundOutcome,
} from './status.js';
export { COPY_WRITE_CONCURRENCY, inSlowStartBatches } from './batches.js';
export { DistributionFailedError } from './errors.js';
export { isDistributedCopy } from './handlers.js';
export { ResourceDistributionReconciler, type ResourceDistributionReconcilerDeps } from './reconciler.js';
export {
  GATE_DISABLED,
  MUTATE_RESOURCEDISTRIBUTION_PATH,
  VALIDATE_RESOURCEDISTRIBUTION_PATH,
  apiServerDryRun,
  dryRunNamespace,
  resourceDistributionDefaulter,
  resourceDistributionValidator,
  resourceDistributionWebhookConfigurations,
  type ResourceDistributionValidatorSources,
} from './webhooks.js';
export { INVALID_SPEC_REASON, specProblem } from './spec-guard.js';
export { resourceDistributionWebhooks } from './program.js';
