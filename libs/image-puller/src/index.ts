export { NodeImageAgent, type AgentLogger, type AgentOptions } from './agent.js';
export {
  attemptTimeout,
  backoffAfter,
  DEADLINE_EXCEEDED_MESSAGE,
  DEFAULT_BACKOFF_LIMIT,
  DEFAULT_TIMEOUT_SECONDS,
  needsPull,
  pullSettings,
  type PullSettings,
} from './attempts.js';
export {
  ContainerMetaDuty,
  observedContainers,
  watchedByNodeDaemon,
  type ContainerMetaCri,
  type ContainerMetaDutyOptions,
} from './container-meta-duty.js';
export { credentialsFor, normalizeRegistry, registryOf, type SecretData } from './credentials.js';
export { agentInstance, EVENT_COMPONENT, NODEIMAGE_KIND, REGISTRATION_CONTROLLER } from './kinds.js';
export { ImagePuller, type PullerOptions } from './puller.js';
export { PullPool, type PoolTask } from './pull-pool.js';
export { jobTraceContext, pullSpanParent } from './pull-trace.js';
export {
  decideStatusWrite,
  requeueAfterMs,
  sameJson,
  syncBackoffMs,
  TokenBucket,
  STATUS_WRITE_BURST,
  STATUS_WRITE_QPS,
  type WriteDecision,
} from './rate-limit.js';
export {
  CriImageRuntime,
  PULLING_IMAGE_BY_ANNOTATION,
  type ImageRuntime,
  type PullRequest,
} from './runtime.js';
export { isPulling, nodeImageStatus } from './status.js';
export {
  StatusUpdater,
  systemClock,
  type StatusUpdaterOptions,
  type UpdaterClock,
} from './status-updater.js';
export { planTags, type TagPlan } from './tag-plan.js';
export type * from './types.js';
export { imageRef } from './types.js';
export {
  formatElapsed,
  PULL_IMAGE_FAILED,
  PULL_IMAGE_SUCCEED,
  PullWorker,
  type PullEventSink,
  type WorkerContext,
} from './worker.js';
export { parseDuties, runNodeAgent, type NodeAgentArgs, type NodeAgentDuties } from './program.js';
