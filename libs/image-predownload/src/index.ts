export { changedImages } from './images.js';
export {
  DEFAULT_PREDOWNLOAD_PARALLELISM,
  DEFAULT_PREDOWNLOAD_TIMEOUT_SECONDS,
  minUpdatedReadyPods,
  preDownloadSettings,
  type PreDownloadSettings,
} from './settings.js';
export {
  MINIMUM_REPLICAS_TO_PREDOWNLOAD,
  ignoreReason,
  rolloutPreDownloadStep,
  type IgnoreFacts,
  type IgnoreReason,
  type PreDownloadStep,
  type RolloutFacts,
} from './when.js';
export {
  PREDOWNLOAD_BACKOFF_LIMIT,
  PREDOWNLOAD_TTL_SECONDS_AFTER_FINISHED,
  notUpdatedPodSelector,
  preDownloadJob,
  preDownloadJobName,
  type PreDownloadJobInput,
} from './job.js';
export {
  ImagePreDownloadControl,
  isPreDownloadJobOf,
  type ImagePreDownloadControlDeps,
  type PrepareInput,
  type PrepareOutcome,
} from './control.js';
