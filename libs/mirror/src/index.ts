export { KindMirror, type MirrorStats } from './kind-mirror.js';
export { MirrorSet, planMirrors, type MirrorSetOptions } from './mirror-set.js';
export { registerMirrorMetrics } from './metrics.js';
