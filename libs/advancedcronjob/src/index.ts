export { CONTROLLER_NAME } from './controller-name.js';
export { startOfLocalDay, wallClockAt, type WallClock } from './schedule/wall-clock.js';
export { nextScheduleTime } from './schedule/next.js';
export { effectiveSchedule } from './schedule/effective.js';
export {
  MAX_MISSED_START_TIMES,
  TOO_MANY_MISSED_MESSAGE,
  missedRuns,
  type MissedRuns,
  type MissedRunsInput,
} from './schedule/missed.js';
export { childJobOf, isCronJobChild, mostRecentScheduledTime, outcomeOf, type ChildJob, type JobLike, type JobOutcome } from './children.js';
export { historyToPrune, jobsBeyondLimit } from './history.js';
export { planRound, statusOf, templateKindOf, type CronDecision, type CronRound, type CronRoundInput } from './plan.js';
export { BROADCAST_JOB_GVK, JOB_GVK, childGvkOf, childJobFor, childJobName, type CronJobChild } from './child-object.js';
export { toMetaTime, toRfc3339InZone } from './time-format.js';
export { FILE_CLOCK_POLL_MS, clockFromEnv, fileClock, systemClock, type Clock } from './clock.js';
export { ClockFileError, CronJobWriteError } from './errors.js';
export { CronEvents } from './events.js';
export { AdvancedCronJobReconciler, type AdvancedCronJobReconcilerDeps } from './reconciler.js';
export {
  MUTATE_ADVANCEDCRONJOB_PATH,
  VALIDATE_ADVANCEDCRONJOB_PATH,
  advancedCronJobDefaulter,
  advancedCronJobValidator,
  advancedCronJobWebhookConfigurations,
  type AdvancedCronJobDefaulterOptions,
} from './webhooks.js';
export { ADVANCED_CRON_JOB_FEATURE_GATES } from './feature-gates.js';
