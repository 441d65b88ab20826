export type { ControlLogger, KubeWriter, ObjectReader, OnWritten, WorkloadKind } from './types.js';
export { claim, type ClaimControlDeps, type ClaimInput } from './claim-control.js';
export {
  writeStatus,
  writeStatusOnCadence,
  type StatusCadenceWrite,
  type StatusWrite,
  type StatusWriteResult,
} from './status-writer.js';
export {
  PROMPT_STATUS_WRITE_INTERVAL_MS,
  REPLICA_COUNTERS,
  SCALE_COUNTERS,
  STATUS_WRITE_INTERVAL_MS,
  StatusCadence,
  changedBeyondCounters,
  decideStatusWrite,
  replicasChangedPromptly,
  replicasRolling,
  replicasSettled,
  type ReplicaCounts,
  type StatusCadenceRules,
  type StatusWriteDecision,
  type StatusWriteFacts,
} from './status-cadence.js';
export {
  ROLLOUT_TRACE_ANNOTATION,
  RolloutTracer,
  contextFromTraceparent,
  parseRolloutRecord,
  type RolloutAttributes,
  type RolloutRecord,
  type RolloutTracerOptions,
} from './rollout-tracer.js';
export {
  activeHolds,
  syncHolds,
  type HoldChanges,
  type HoldFacts,
  type HoldStarts,
  type RolloutHold,
} from './rollout-holds.js';
export {
  RolloutTraceControl,
  type HookKind,
  type RolloutProgress,
  type RolloutTraceDeps,
} from './rollout-trace-control.js';
// for unit tests of controllers and controls (in-memory readers and a recording writer)
export { MemoryCluster, type RecordedWrite } from './testing/memory-cluster.js';
export {
  syncWorkloadProgressing,
  type ProgressFacts,
  type ProgressingVocabulary,
  type WorkloadCondition,
  type WorkloadProgressingInput,
} from './progressing.js';
export { rolloutProgress, type RolloutKind, type RolloutStatus, type Workload } from './rollout-status.js';
export {
  rolloutPhase,
  rolloutSample,
  ROLLOUT_PHASES,
  type RolloutPhase,
  type WorkloadRolloutSample,
} from './rollout-phase.js';
export { deletePodExpected, type DeleteExpectations, type PodDeleteDeps } from './pod-delete.js';
// a PodUnavailableBudget refusal is a wait (docs/podunavailablebudget.md)
export { budgetRefusesUpdate, waitedForBudget, waitsForBudget, type BudgetWaitContext } from './budget-wait.js';
// one reconcile round of a workload controller (docs/adr/0072-one-workload-round.md)
export {
  WorkloadRound,
  claimPods,
  expectPodWrites,
  failureOf,
  pendingPodWrites,
  podWriteControls,
  refusedSpec,
  runRound,
  soonestRequeue,
  syncWorkloadRevisions,
  traceRollout,
  truncateWorkloadHistory,
  workloadAdmissionAnswer,
  workloadDefaulter,
  workloadSync,
  workloadValidator,
  workloadWebhookConfigurationsOf,
  type ClaimPodsInput,
  type ForgetsByKey,
  type InvalidSpecInput,
  type PendingWritesInput,
  type PodWriteControls,
  type RevisionOwner,
  type RoundFailure,
  type RoundSteps,
  type TracedRollout,
  type WorkloadRoundDeps,
  type WorkloadRoundKind,
  type WorkloadSync,
  type WorkloadSyncDeps,
  type WorkloadRules,
  type WorkloadWebhookConfigurations,
  type WorkloadSyncInput,
} from './round/index.js';
export {
  POLICY_API_VERSION,
  ROLLING_UPDATE,
  ROLLING_UPDATE_PATH,
  celBadValue,
  celHas,
  celIntOrPercentError,
  celIntOrPercentOk,
  celOneOf,
  celOr,
  celString,
  intOrPercentVariables,
  supportedValues,
  validatingPolicyObjects,
  validationPolicyName,
  type KindPolicy,
  type PolicyRule,
  type PolicyScope,
} from './admission-policy.js';
export { policyCaseObjects, type PolicyCase, type PolicyCaseObjects } from './admission-policy-cases.js';
export { WORKLOAD_VARIABLES, workloadRules, type WorkloadRuleOptions } from './admission-policy-rules.js';
