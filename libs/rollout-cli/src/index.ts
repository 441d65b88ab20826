export {
  JaegerQueryError,
  NoRolloutTraceError,
  RolloutCliError,
  RolloutTimeoutError,
  RolloutUsageError,
  UnknownKindError,
  WorkloadNotFoundError,
} from './errors.js';
export { ROLLOUT_KINDS, parseTarget, type KindInfo, type RolloutKind, type RolloutTarget } from './kinds.js';
export { rolloutProgress, type RolloutProgress, type Workload } from './progress.js';
export { formatSummary, rolloutTraceOf, type RolloutTraceRef } from './summary.js';
export { pausePatch } from './pause.js';
export { RevisionNotFoundError, planUndo, revisionTemplate, templateMatches, type UndoPlan } from './undo.js';
export { formatAge, formatHistory, ownedBy, revisionHistory, type ControllerRevision, type HistoryRow } from './history.js';
export { parseDuration } from './duration.js';
export {
  rolloutHistory,
  rolloutSetPaused,
  rolloutStatus,
  rolloutUndo,
  readWorkload,
  type RolloutContext,
  type StatusOptions,
} from './commands.js';
export { fieldPath, planDiff, recreateFields, type DiffInput, type DiffKind, type DiffPlan, type ImageChange, type PodAction, type PodDiff } from './diff.js';
export { formatDiff } from './diff-format.js';
export { diffTargets, diffWorkloads, type DiffTarget } from './diff-command.js';
export {
  formatSpanTime,
  formatTotals,
  formatWaterfall,
  traceWaterfall,
  type JaegerJsonSpan,
  type JaegerJsonTrace,
  type Waterfall,
  type WaterfallRecord,
  type WaterfallRow,
  type WaterfallTotals,
} from './waterfall.js';
export { fetchJaegerTrace, jaegerQueryBase } from './jaeger.js';
export { rolloutTrace, type TraceOptions } from './trace-command.js';
