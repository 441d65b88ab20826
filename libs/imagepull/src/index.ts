export { normalizeImageRef, imageFullName, type ImageNameTag } from './image-ref.js';
export {
  ImagePullJobRejections,
  defaultImagePullJob,
  defaultNodeImage,
  validateImagePullJob,
  validateImagePullJobUpdate,
  validateNodeImage,
} from './admission.js';
export { ImagePullError } from './errors.js';
export { IMAGEPULL_FEATURE_GATES, imagePullJobsEnabled, type ImagePullFeatureGates } from './gates.js';
export { targetNodeImages, jobMayTarget, isActivePod, type PodLike } from './targets.js';
export { calculateStatus, containsSecretRef, statusMessage, type CalculatedStatus } from './status.js';
export {
  ACTIVE_DEADLINE_SECONDS_FOR_NEVER,
  DEFAULT_TTL_SECONDS_FOR_ALWAYS_NODEIMAGE,
  TTL_SECONDS_FOR_NEVER,
  activeDeadlineSecondsForNever,
  jobOwnerRef,
  parallelismOf,
  nextImageEntry,
  syncBudget,
  tagPullPolicy,
  ttlSecondsForAlways,
  ttlSecondsForNever,
  type TagPolicyOptions,
} from './sync.js';
export {
  classifySecrets,
  claimedSecret,
  jobKey,
  newSyncedSecret,
  referencingJobs,
  releaseActions,
  secretRefOf,
  type ReleaseAction,
  type SecretClassification,
  type SecretLike,
} from './secrets.js';
export { syncJobPullSecrets, type SecretSyncDeps } from './secret-sync.js';
export { maintainNodeImageSpec, type SpecLookups, type SpecMaintenance } from './nodeimage-spec.js';
export { RESPONSE_TIMEOUT_MS, guardNodeImageStatus, pullFailedMessage, type StatusGuard, type TagFailure } from './nodeimage-status.js';
export { changedSpecTags, changedStatusTags, jobsForNodeImageUpdate } from './changes.js';
export { JOB_SPAN_NAME, emitJobSpan, jobSpan, type JobSpan } from './job-trace.js';
export { ImagePullJobReconciler, SECRET_RESYNC_MS, type ImagePullJobReconcilerDeps, type Reader } from './job-reconciler.js';
export {
  DEFAULT_NODEIMAGE_CREATION_DELAY_MS,
  NodeImageReconciler,
  isVirtualKubelet,
  nodeReadyDelay,
  type NodeImageReconcilerDeps,
  type NodeLike,
} from './nodeimage-reconciler.js';
export { jobsForNodeImageChange, jobsForPodChange, nodeImageForNodeChange, nodeImagesForJobDelete } from './handlers.js';
export {
  IMAGEPULL_WEBHOOK_MATCH_CONDITIONS,
  MUTATE_IMAGEPULLJOB_PATH,
  MUTATE_NODEIMAGE_PATH,
  VALIDATE_IMAGEPULLJOB_PATH,
  VALIDATE_NODEIMAGE_PATH,
  gateForbidden,
  imagePullJobDefaulter,
  imagePullJobValidator,
  imagePullWebhookConfigurations,
  nodeImageDefaulter,
  nodeImageValidator,
} from './webhooks.js';
export { imagePullSettings, type ImagePullSettings } from './settings.js';
export { INVALID_SPEC_REASON, nodeImageSpecProblem, specProblem } from './spec-guard.js';
export { imagePullJobReconcilerOf, imagePullWebhooks, isScheduledPod, nodeImageReconcilerOf } from './program.js';
