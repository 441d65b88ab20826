export {
  RuntimeError,
  InvalidOptionsError,
  AlreadyStartedError,
  ManagerStartedError,
  CacheSyncTimeoutError,
  GracefulShutdownTimeoutError,
  LeaderElectionLostError,
  LeaseNotHeldError,
  RunnableFailedError,
  TlsConfigError,
} from './errors.js';
export { silentLogger, type Logger, type LogFn } from './logger.js';
export { KeyedSyncs, type KeyedSyncsOptions } from './keyed-syncs.js';
export { systemClock, sleep, type Clock } from './clock.js';
export { CONTROLLER_NAMES, type ControllerName } from './controller-names.js';
export {
  nodeAgentInboxPrefix,
  nodeAgentPermissions,
  type BusPermissions,
  type NodeAgentGrant,
} from './node-agent-permissions.js';

// work queue
export { WorkQueue, type WorkQueueOptions, type QueueItem, type Priority } from './queue/work-queue.js';
export {
  ItemExponentialFailureRateLimiter,
  BucketRateLimiter,
  MaxOfRateLimiter,
  defaultControllerRateLimiter,
  type RateLimiter,
} from './queue/rate-limiter.js';

// reconcile + controller
export {
  TerminalError,
  isTerminalError,
  requestKey,
  parseRequestKey,
  type Request,
  type Result,
  type Reconciler,
  type ReconcileContext,
} from './reconcile.js';
export { Controller, type ControllerOptions } from './controller.js';
export {
  controllerRequest,
  deepEqual,
  enqueueForOwner,
  ignoreStatusOnlyUpdates,
  observeOwned,
  requestForObject,
  type MapFunc,
  type OwnerKind,
  type Predicate,
} from './handlers.js';
export type { ReconcileOutcome } from './controller-metrics.js';
export {
  startStopRunnable,
  type Runnable,
  type SyncWaiter,
  type StartStop,
  type Checker,
} from './runnable.js';

// expectations
export {
  Expectations,
  DEFAULT_EXPECTATION_TIMEOUT_MS,
  type ExpectationsOptions,
  type ExpectationTimeout,
  type ScaleAction,
  type PendingScale,
  type PendingUpdate,
  type Satisfaction,
} from './expectations.js';
export { waitForPendingWrites } from './pending-writes.js';

// manager + leader election
export { Manager, type ManagerOptions, type SignalSource, type ProbeRegistrar } from './manager.js';
export {
  LeaderElector,
  validateLeaderElectionTimings,
  defaultIdentity,
  type LeaderElectionOptions,
  type LeaderElectionCallbacks,
  type LeaderElectionEnd,
} from './leader-election.js';
export {
  decide,
  observeLease,
  nextLease,
  releasedLease,
  formatMicroTime,
  errorStatus,
  type Lease,
  type LeaseSpec,
  type LeaseStore,
  type ObservedLease,
  type LeaseDecision,
} from './lease.js';

// http: probes, metrics, admission webhooks
export { ProbeServer, type ProbeServerOptions } from './http/probe-server.js';
export { WebhookServer, type WebhookServerOptions } from './http/webhook-server.js';
export {
  NOT_BEING_DELETED,
  SPEC_OPTIONAL_WEBHOOK_MATCH_CONDITIONS,
  kindWebhookConfigurations,
  webhookConfigurationName,
  type KindWebhooks,
  type WebhookConfigurationPair,
  type WebhookMatchCondition,
} from './http/kind-webhook-configurations.js';
export {
  WORKLOAD_WEBHOOK_MATCH_CONDITIONS,
  workloadWebhookConfigurations,
  type WorkloadWebhooks,
} from './http/workload-webhook-configurations.js';
export {
  AdmissionDeniedError,
  BadAdmissionReviewError,
  Mutation,
  fieldErrorCauses,
  invalid,
  type AdmissionInput,
  type AdmissionStatus,
  type StatusCause,
  type ValidationResult,
  type ValidatingHandler,
  type MutatingHandler,
  type Operation,
  type GroupVersionKind,
  type UserInfo,
} from './http/admission.js';
export type { TlsSource } from './http/tls.js';
export {
  ADDRESS_FILE_ENV,
  AddressFileError,
  formatAddress,
  recordAddress,
  type BoundAddresses,
} from './http/address-file.js';
export { kubeLeaseStore } from './kube-lease-store.js';
export {
  defaultListenHost,
  parseHostPort,
  parseNamespaceScope,
  readProcessConfig,
  type HostPort,
  type ProcessConfig,
} from './process-config.js';
export { OPENKRUISE_FEATURE_GATES, parseFeatureGates, type FeatureGateDefaults } from './feature-gates.js';
export { POD_WRITE_CONCURRENCY, forEachLimited } from './limited.js';
export {
  certificateAuthorityFromPem,
  createCertificateAuthority,
  createSigningKey,
  type CertificateAuthority,
  type KeyPairPem,
} from './http/certificates.js';
