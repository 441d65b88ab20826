export {
  JaegerQueryError,
  NoRolloutTraceError,
  RolloutCliError,
  RolloutDegradedError,
  RolloutTimeoutError,
  RolloutUsageError,
  UnknownKindError,
  WorkloadNotFoundError,
} from './errors.js';
export { ROLLOUT_KINDS, parseTarget, type KindInfo, type RolloutKind, type RolloutTarget } from './kinds.js';
export { JOB_KINDS, jobState, type JobKind, type JobKindInfo, type JobState } from './job-status.js';
export { jobStatus, parseJobTarget, type JobStatusOptions, type JobTarget } from './job-status-command.js';
export { rolloutProgress, type RolloutProgress, type Workload } from './progress.js';
export { formatSummary, rolloutTraceOf, type RolloutTraceRef } from './summary.js';
export { pausePatch } from './pause.js';
export { RevisionNotFoundError, planUndo, revisionTemplate, templateMatches, type UndoPlan } from './undo.js';
export { formatAge, formatHistory, ownedBy, revisionHistory, type ControllerRevision, type HistoryRow } from './history.js';
export { parseDuration } from './duration.js';
export {
  degradedReason,
  rolloutHistory,
  rolloutRestart,
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
export { podRow, podStatus, podUpdateKind, rolloutWindow, type PodRow, type PodUpdateKind, type RolloutWindow } from './pod-rows.js';
export { groupPods, sidecarHashOf, type GroupInput, type PodGroup, type PodMark, type SubsetInfo, type ViewRow } from './pod-groups.js';
export { podQuery, selectPods, sidecarSetOf, subsetsOf, type PodQuery } from './pod-select.js';
export { DEFAULT_PODS_PER_GROUP, formatPodView, redrawFrame, type PodViewOptions, type TerminalSize } from './pod-view.js';
export { formatList, listRow, sortRows, type ListRow } from './list.js';
export { listWorkloads, type ListOptions } from './list-command.js';
export { readPodView, type PodViewText } from './pod-list.js';
export { OUTPUT_FORMATS, formatStructured, parseOutputFormat, type OutputFormat } from './output.js';
export { RESTARTED_AT_ANNOTATION, restartPatch } from './restart.js';
export { columnWidths, formatTable, tableLine } from './table.js';
