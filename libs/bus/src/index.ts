export { MAX_VALUE_BYTES, replicasUpdate } from './bucket.js';
export { bucketWasReset, Cache, INDEX_NAMESPACE, INDEX_NODE_NAME, INDEX_OWNER_UID } from './cache.js';
export type { BucketFollowed, CacheOptions, Change, ChangeHandler, ChangeType, IndexFunc } from './cache.js';
export {
  DEFAULT_DEDUPED_VALUES,
  DEFAULT_SHARED_STRINGS,
  MAX_SHARED_STRING_LENGTH,
  StringTable,
  projectObject,
  projection,
  unionFieldSets,
  type FieldRule,
  type FieldSet,
} from './projection.js';
export {
  ADS_POD_FIELDS,
  ASTS_POD_FIELDS,
  CLONESET_POD_FIELDS,
  IMAGEPULL_POD_FIELDS,
  PUB_POD_FIELDS,
  SIDECARSET_POD_FIELDS,
  UD_POD_FIELDS,
  type AdsPod,
  type AstsPod,
  type CloneSetPod,
  type ImagePullPod,
  type PubPod,
  type SidecarSetPod,
  type UnitedDeploymentPod,
} from './pod-fields.js';
export type { FieldRuleOf, FieldSetOf, Projected, UnionOfFieldSets } from './projection-types.js';
export {
  authMethod,
  BUS_AUTH_ENV,
  connectionAuth,
  parseNkeySeed,
  readBusAuth,
  type BusAuth,
  type BusTls,
  type ReadFile,
} from './auth.js';
export { busReplicas, connectBus, MAX_BUS_REPLICAS, serverList, type Bus, type BusOptions } from './connection.js';
export {
  decodeEnvelope,
  encodeEnvelope,
  isResourceDistributionResource,
  isSecretResource,
  LAST_APPLIED_ANNOTATION,
  SECRET_HASH_ANNOTATION,
  trimForMirror,
  type Envelope,
  type MirrorResource,
  type TrimOptions,
} from './envelope.js';
export {
  AuthCalloutRequestError,
  BucketResetError,
  BusError,
  BusOptionsError,
  BusRefusedError,
  BusUnavailableError,
  EnvelopeError,
  ObjectTooLargeError,
  SecretHashKeyMissingError,
} from './errors.js';
export {
  bucketName,
  keyOf,
  LISTED_KEY,
  objectKey,
  parseKey,
  resourceId,
  type Kind,
  type KindRef,
  type KubeObject,
} from './kinds.js';
export {
  CONTROLLER_NAME,
  neededKinds,
  parseRegistration,
  readRegistrations,
  registerKinds,
  registrationKey,
  REGISTRATION_TTL_MS,
  REGISTRATIONS_BUCKET,
  watchRegistrations,
  type ParsedRegistration,
  type Registration,
} from './registration.js';
export { MirrorWriter } from './writer.js';
export { KeyedPipeline, PUT_WINDOW, type Admitted } from './keyed-pipeline.js';
export { ObjectWatch, type ObjectWatchOptions } from './object-watch.js';
export type { SetAsideEntry, SetAsideReason } from './set-aside.js';
export {
  AUTH_CALLOUT_SUBJECT,
  calloutResponse,
  decideNodeAgent,
  GLOBAL_ACCOUNT,
  NODE_NAME_EXTRA,
  parseCalloutRequest,
  POD_NAME_EXTRA,
  tokenExpiry,
  type CalloutRequest,
  type NodeAgentDecision,
  type NodeAgentPolicy,
  type TokenReviewStatus,
} from './auth-callout.js';
export {
  runAuthCallout,
  startAuthCallout,
  tokenReviewer,
  type AuthCalloutLog,
  type AuthCalloutOptions,
  type ReviewToken,
} from './auth-callout-service.js';
export {
  DEFAULT_BUS_AUDIENCE,
  parseIssuerSeed,
  readAuthCalloutSettings,
  type AuthCalloutSettings,
} from './auth-callout-settings.js';
