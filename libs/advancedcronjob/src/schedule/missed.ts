/**
 * Which scheduled time is due now (`pkg/controller/advancedcronjob` getNextSchedule): counting from the last
 * schedule time (else the cron job's creation), or from `now - startingDeadlineSeconds` when that is later, every
 * scheduled time up to `now` was missed; the latest of them is the one to run, and the next one after `now` is when
 * to look again. More than 100 missed times is an error (a clock far off, or a controller down for long, with no
 * deadline set): nothing runs until the spec sets or lowers `startingDeadlineSeconds`.
 */
import type { CronSchedule } from '@regatta/api';
import { nextScheduleTime } from './next.js';

/** The most missed times counted before giving up (upstream's limit). */
export const MAX_MISSED_START_TIMES = 100;
export const TOO_MANY_MISSED_MESSAGE =
  'too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew';

export interface MissedRunsInput {
  schedule: CronSchedule;
  /** epoch ms; undefined when the cron job never ran. */
  lastScheduleTime?: number | undefined;
  creationTimestamp: number;
  startingDeadlineSeconds?: number | undefined;
  now: number;
}

export type MissedRuns =
  | {
      readonly ok: true;
      /** The latest scheduled time in (earliest, now]; undefined when none. */
      readonly lastMissed?: number;
      /** The first scheduled time after now; undefined when none within five years. */
      readonly next?: number;
      /** How many scheduled times were missed. */
      readonly missed: number;
    }
  | { readonly ok: false; readonly message: string };

export function missedRuns(i: MissedRunsInput): MissedRuns {
  let earliest = i.lastScheduleTime ?? i.creationTimestamp;
  if (i.startingDeadlineSeconds != null) earliest = Math.max(earliest, i.now - i.startingDeadlineSeconds * 1000);
  const next = nextScheduleTime(i.schedule, i.now);
  const withNext = next === undefined ? {} : { next };
  if (earliest > i.now) return { ok: true, missed: 0, ...withNext };
  let lastMissed: number | undefined;
  let missed = 0;
  for (let t = nextScheduleTime(i.schedule, earliest); t !== undefined && t <= i.now; t = nextScheduleTime(i.schedule, t)) {
    lastMissed = t;
    if (++missed > MAX_MISSED_START_TIMES) return { ok: false, message: TOO_MANY_MISSED_MESSAGE };
  }
  return { ok: true, missed, ...(lastMissed === undefined ? {} : { lastMissed }), ...withNext };
}
