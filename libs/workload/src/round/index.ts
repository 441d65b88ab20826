export {
  WorkloadRound,
  type ForgetsByKey,
  type WorkloadRoundDeps,
  type WorkloadRoundKind,
} from './workload-round.js';
export { pendingPodWrites, refusedSpec, type InvalidSpecInput, type PendingWritesInput } from './gates.js';
export { expectPodWrites, podWriteControls, type PodWriteControls } from './pod-writes.js';
export type { WorkloadSync, WorkloadSyncDeps } from './context.js';
export { traceRollout, workloadSync, type TracedRollout, type WorkloadSyncInput } from './round-sync.js';
export { failureOf, runRound, soonestRequeue, type RoundFailure, type RoundSteps } from './run-round.js';
export { claimPods, type ClaimPodsInput } from './claim-pods.js';
export { syncWorkloadRevisions, truncateWorkloadHistory, type RevisionOwner } from './revisions.js';
export {
  workloadAdmissionAnswer,
  workloadDefaulter,
  workloadValidator,
  workloadWebhookConfigurationsOf,
  type WorkloadRules,
  type WorkloadWebhookConfigurations,
} from './admission.js';
