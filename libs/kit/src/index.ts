export {
  ControllerBuilder,
  mutating,
  validating,
  type ControllerDeclaration,
  type ControllerOptions,
  type ForDeclaration,
  type KeepOptions,
  type ReaderObject,
  type KindDeclaration,
  type OwnedExpectations,
  type OwnsDeclaration,
  type ProgramContext,
  type Reader,
  type Readers,
  type RolloutSample,
  type WatchesDeclaration,
  type WebhookDeclaration,
  type WebhookRoute,
} from './declaration.js';
export {
  NAMESPACES,
  cachesOf,
  cachesOfAll,
  eventHandlers,
  kindsToRegister,
  kindsOfAll,
  mergeWebhooks,
  ownerKindOf,
  requestInScope,
  requestsInNamespace,
} from './derive.js';
export { KitError } from './errors.js';
export { runController, runControllers } from './program.js';
export { runProgram, type Program } from './bootstrap.js';
export { busAuthCallout, withAlongside, type Alongside, type AlongsideContext } from './alongside.js';
export { registerProgramMetrics, type ProgramMetricSources, type RolloutSource } from './program-metrics.js';
export {
  certificateCovers,
  sharedWebhookCertificates,
  webhookSecretName,
  type SharedCertificates,
} from './webhook-certificates.js';
export {
  KEEPER_LABEL,
  LateWebhookConfigurations,
  WebhookConfigurationKeeper,
  holds,
  inStep,
  keeperMark,
  marked,
  withoutUrls,
  type WebhookConfigurationsNow,
} from './webhook-configurations.js';
export { dialHost, serveWebhooks, webhookUrl } from './webhooks.js';
