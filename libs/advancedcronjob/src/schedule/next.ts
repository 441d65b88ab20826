/**
 * When a parsed schedule (`@regatta/api` `parseCronSchedule`) fires next: the first time strictly after an instant,
 * as robfig/cron's `Schedule.Next` (OpenKruise `pkg/controller/advancedcronjob` computes runs with it). The search
 * walks the local calendar of the schedule's zone — month, then day, then hour, then minute — so daylight saving
 * behaves as cron's: a time that a spring-forward skips does not run that day, and an hour repeated in the autumn
 * runs twice. None within five years: undefined.
 */
import type { CronFieldsSchedule, CronSchedule } from '@regatta/api';
import { startOfLocalDay, wallClockAt, type WallClock } from './wall-clock.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** robfig/cron gives up five years after the start. */
const YEARS_SEARCHED = 5;

/** Cron's day rule: with `*` in either day field both must match, otherwise either. */
function dayMatches(s: CronFieldsSchedule, w: WallClock): boolean {
  const dom = s.dayOfMonth.has(w.day);
  const dow = s.dayOfWeek.has(w.weekday);
  return s.dayOfMonthAny || s.dayOfWeekAny ? dom && dow : dom || dow;
}

function nextFields(s: CronFieldsSchedule, afterMs: number): number | undefined {
  // the first whole minute after `afterMs`
  let t = Math.floor(afterMs / MINUTE) * MINUTE + MINUTE;
  const limit = wallClockAt(t, s.timeZone).year + YEARS_SEARCHED;
  for (;;) {
    const w = wallClockAt(t, s.timeZone);
    if (w.year > limit) return undefined;
    if (!s.month.has(w.month)) {
      t = startOfLocalDay(w.year, w.month + 1, 1, s.timeZone);
    } else if (!dayMatches(s, w)) {
      t = startOfLocalDay(w.year, w.month, w.day + 1, s.timeZone);
    } else if (!s.hour.has(w.hour)) {
      t = t - w.minute * MINUTE + HOUR;
    } else if (!s.minute.has(w.minute)) {
      t += MINUTE;
    } else {
      return t;
    }
  }
}

/** The first scheduled time strictly after `after` (epoch ms); undefined when none comes within five years. */
export function nextScheduleTime(schedule: CronSchedule, after: number): number | undefined {
  if (schedule.kind === 'every') return Math.floor(after / 1000) * 1000 + schedule.everyMs;
  return nextFields(schedule, after);
}
