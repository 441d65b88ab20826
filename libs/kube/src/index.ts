export type { GroupVersionKind, KubeObject, ObjectMeta, OwnerReference } from './meta.js';
export { splitApiVersion } from './meta.js';
export {
  UNSCHEDULABLE_TAINT,
  fitsNodeAffinity,
  nodeSelectorTermMatches,
  toleratesTaint,
  untoleratedTaints,
  type Affinity,
  type NodeSelectorRequirement,
  type NodeSelectorTerm,
  type SchedulingNode,
  type SchedulingSpec,
  type Taint,
  type Toleration,
} from './node-scheduling.js';
export type { Change, ChangeType } from './change.js';

export {
  FieldPath,
  aggregateFieldErrors,
  fieldErrorBody,
  fieldErrors,
  fieldPath,
  formatFieldError,
  type FieldError,
  type FieldErrorType,
} from './field-errors.js';
export { isDns1123Label, isDns1123Subdomain, isQualifiedName, isValidLabelValue } from './names.js';

export {
  InvalidSelectorError,
  SELECTOR_OPERATORS,
  compileLabelSelector,
  isSelectorEmpty,
  labelSelectorMatches,
  labelSelectorToString,
  selectorFromLabels,
  selectsEverything,
  validateLabelSelector,
  type CompiledSelector,
  type LabelSelector,
  type LabelSelectorRequirement,
  type Labels,
  type SelectorOperator,
} from './selector.js';

export {
  IntOrStringError,
  intOrStringToInt,
  isPercent,
  parseIntOrString,
  partitionOf,
  scaleK8s,
  scaleKruise,
  validateNotMoreThan100Percent,
  validatePositiveIntOrPercent,
  type IntOrString,
} from './intstr.js';

export { Quantity, QuantityParseError, canonicalQuantity, compareQuantities, parseQuantity, type QuantityFormat } from './quantity.js';

export {
  OwnerReferenceError,
  adoptMergePatch,
  adoptPatch,
  claimOwnerOf,
  controllerRef,
  decideClaim,
  isClaimed,
  isControlledBy,
  newControllerRef,
  planClaims,
  releaseMergePatch,
  releasePatch,
  type ClaimDecision,
  type ClaimOwner,
  type ClaimPlan,
} from './owner.js';

export {
  getCondition,
  isConditionTrue,
  removeCondition,
  setCondition,
  type Condition,
  type SetConditionOptions,
} from './conditions.js';
export { toRfc3339, toRfc3339Micro } from './time.js';

export { cloneJson, isPlainObject, jsonEqual, ownValue, setMember, type JsonPrimitive, type JsonValue } from './json.js';
export { JsonPointerError, escapePointerToken, formatPointer, parsePointer, unescapePointerToken } from './json-pointer.js';
export { applyMergePatch, createMergePatch } from './merge-patch.js';
export {
  JsonPatchError,
  applyJsonPatch,
  createJsonPatch,
  type CreateJsonPatchOptions,
  type JsonPatchOperation,
} from './json-patch.js';
export {
  PROJECTED,
  ProjectedWriteError,
  containsProjected,
  isProjected,
  markProjected,
  updatePatch,
  writeUpdatePatch,
} from './projected.js';
export {
  APPLY_PATCH_CONTENT_TYPE,
  JSON_PATCH_CONTENT_TYPE,
  MERGE_PATCH_CONTENT_TYPE,
  PATCH_CONTENT_TYPES,
  STRATEGIC_MERGE_PATCH_CONTENT_TYPE,
  type PatchType,
} from './patch.js';

export {
  AlreadyExistsError,
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GoneError,
  InvalidError,
  KubeApiError,
  NetworkError,
  NotFoundError,
  ServerError,
  TimeoutError,
  TooManyRequestsError,
  UnauthorizedError,
  UnexpectedKubeError,
  UnknownResourceError,
  hasKubeErrorCode,
  isAlreadyExists,
  isConflict,
  isNamespaceTerminating,
  isNotFound,
  kubeErrorFromResponse,
  toKubeApiError,
  type KubeApiErrorInit,
  type Status,
  type StatusCause,
  type StatusDetails,
} from './errors.js';
export { DEFAULT_BACKOFF, DEFAULT_RETRY, backoffDelays, retryOnConflict, retryOnError, type Backoff, type RetryOptions } from './retry.js';

export {
  KNOWN_RESOURCES,
  apiVersionPath,
  fieldSelectorToString,
  knownResource,
  resourcePath,
  type ResourceInfo,
} from './resources.js';
export { apiVersionOf, atVersion, kind, type Kind, type KindRef, type ObjectOf } from './kind.js';
export { KIND_TABLE } from './kind-table.js';
export { KubeClient, KubeConfigError, KubeUsageError } from './client.js';
export {
  DEFAULT_RATE_LIMIT,
  MAX_THROTTLE_RETRIES,
  RateLimitConfigError,
  rateLimitFromEnv,
  type RateLimit,
} from './client-rate-limit.js';
export { kubectlConfigSource, loadKubectlConfig, type KubectlConfigOptions } from './kubectl-config.js';
export type {
  CollectionRef,
  DeleteOptions,
  KubeClientOptions,
  KubeResponse,
  KubeList,
  ListOptions,
  PatchOptions,
  RawRequest,
  ReplaceOptions,
  ResourceRef,
  WriteOptions,
} from './client-options.js';

export { EventReasons, type EventReason } from './event-reasons.js';
export type { CoreEvent, InvolvedObject } from './event-types.js';
export {
  COMBINED_PREFIX,
  EventCorrelator,
  eventKey,
  eventNamespace,
  similarEventKey,
  type CorrelatedEvent,
  type EventCorrelatorOptions,
  type EventInput,
} from './event-correlator.js';
export { EventRecorder, MAX_EVENT_MESSAGE, involvedObjectOf, type EventRecorderOptions, type EventWriter } from './events.js';
export { ListWatcher, type ListWatchHandlers, type ListWatchOptions, type WatchedResource } from './list-watch.js';
export { withUserAgent } from './watch-config.js';
export { OwnWrites, resourceVersionNewer } from './own-writes.js';
export { INVALID_SPEC_REASON, SpecGuard, refuseInvalidSpec, specProblemOf } from './spec-guard.js';
export {
  type WriteOutcome,
  createdOnRead,
  deletedOnRead,
  generatedOnRead,
  mayHaveBeenApplied,
  settleWrite,
  versionAfter,
} from './write-outcome.js';
