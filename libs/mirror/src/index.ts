export { kindsToMirror, planMirrors, type Refusal, type RefusalReason } from './admission.js';
export {
  CATALOGUE,
  DEFAULT_ALLOW_LIST,
  MIN_SECRET_HASH_KEY_LENGTH,
  MirrorConfigError,
  parseAllowList,
  readMirrorConfig,
  type AllowList,
  type MirrorConfig,
} from './catalogue.js';
export { KindMirror, REASON_TOO_LARGE, type KindMirrorOptions, type MirrorStats, type SetAside } from './kind-mirror.js';
export { DEFAULT_STALE_AFTER_MS, mirrorLagReason, type MirrorProgress } from './mirror-health.js';
export { MirrorSet, type MirrorLogger, type MirrorSetOptions } from './mirror-set.js';
export { registerMirrorMetrics } from './metrics.js';
