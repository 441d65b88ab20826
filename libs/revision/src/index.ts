export {
  CONTROLLER_REVISION_HASH_LABEL,
  DEFAULT_REVISION_HISTORY_LIMIT,
  MAX_PARENT_NAME_LENGTH,
  POD_TEMPLATE_HASH_LABEL,
  REVISION_HASH_LABEL,
  VCT_HASH_ANNOTATION,
} from './keys.js';
export type {
  ControllerRevision,
  PodTemplate,
  RevisionedWorkload,
  TemplateMeta,
  VolumeClaimTemplate,
} from './types.js';
export { GoJsonError, goJson, goQuote } from './go-json.js';
export { Fnv32, SAFE_ALPHABET, deepHashJsonBytes, fnv1_32, fnv1a_32, safeEncodeString } from './hash.js';
export {
  CLONESET_KIND,
  RevisionDataError,
  applyRevision,
  controllerRevisionName,
  hashControllerRevision,
  newCloneSetRevision,
  resolveNameCollision,
  revisionDataBytes,
  revisionForCollisionCount,
  templateFromRevision,
  templateRevisionData,
  type NameCollisionResolution,
} from './controller-revision.js';
export {
  compareControllerRevisions,
  currentRevisionOf,
  decideUpdateRevision,
  equalRevision,
  findEqualRevisions,
  nextRevision,
  ownedRevisions,
  revisionOfPod,
  revisionsToTruncate,
  sortControllerRevisions,
  type TruncateHistoryInput,
  type UpdateRevisionDecision,
} from './history.js';
export {
  isPodAtRevision,
  podRevision,
  podTemplateHashPatch,
  revisionLabels,
  shortHash,
  withRevisionLabels,
  type RevisionLabelOptions,
} from './pod-revision.js';
export {
  canVolumeClaimTemplatesUpdateInPlace,
  revisionVolumeClaimTemplatesHash,
  volumeClaimTemplatesHash,
  volumeClaimTemplatesJson,
} from './vct-hash.js';
export {
  syncRevisions,
  truncateHistory,
  type RevisionSync,
  type RevisionSyncInput,
  type RevisionWriter,
} from './revision-control.js';
