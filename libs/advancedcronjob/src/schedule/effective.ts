/**
 * The schedule a cron job runs on (`pkg/controller/advancedcronjob/advancedcronjob_utils.go` formatSchedule): a
 * `TZ=`/`CRON_TZ=` prefix in `spec.schedule` wins; else a valid `spec.timeZone`; else UTC (a time zone the runtime
 * does not know is ignored, as upstream ignores one `time.LoadLocation` fails on — admission refuses it anyway).
 */
import { parseCronSchedule, timeZoneProblem, type AdvancedCronJobSpec, type CronParseResult } from '@regatta/api';

export function effectiveSchedule(spec: Pick<AdvancedCronJobSpec, 'schedule' | 'timeZone'>): CronParseResult {
  const schedule = spec.schedule ?? '';
  const zone = spec.timeZone;
  if (schedule.includes('TZ') || zone == null || timeZoneProblem(zone) !== undefined) return parseCronSchedule(schedule);
  return parseCronSchedule(schedule, zone);
}
