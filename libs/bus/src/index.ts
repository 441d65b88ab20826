export { Cache, INDEX_NAMESPACE, INDEX_NODE_NAME, INDEX_OWNER_UID } from './cache.js';
export type { CacheOptions, Change, ChangeHandler, ChangeType, IndexFunc } from './cache.js';
export { connectBus, type Bus, type BusOptions } from './connection.js';
export { decodeEnvelope, encodeEnvelope, trimForMirror, type Envelope } from './envelope.js';
export { BusError, BusUnavailableError, EnvelopeError } from './errors.js';
export {
  bucketName,
  keyOf,
  KINDS,
  objectKey,
  parseKey,
  resourceId,
  type KindRef,
  type KubeObject,
} from './kinds.js';
export {
  neededKinds,
  readRegistrations,
  registerKinds,
  REGISTRATION_TTL_MS,
  watchRegistrations,
  type Registration,
} from './registration.js';
export { MirrorWriter } from './writer.js';
