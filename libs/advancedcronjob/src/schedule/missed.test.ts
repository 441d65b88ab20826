import { parseCronSchedule, type CronSchedule } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { TOO_MANY_MISSED_MESSAGE, missedRuns } from './missed.js';

const sched = (spec: string): CronSchedule => {
  const r = parseCronSchedule(spec);
  if (!r.ok) throw new Error(r.message);
  return r.schedule;
};
const t = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString().slice(11, 19));

describe('missedRuns', () => {
  const created = '2026-12-07T10:00:30Z';
  it.each([
    // [case, schedule, last schedule time, deadline seconds, now, last missed, missed count, next]
    ['nothing due yet', '*/5 * * * *', undefined, undefined, '2026-12-07T10:04:00Z', undefined, 0, '10:05:00'],
    ['the first time is due', '*/5 * * * *', undefined, undefined, '2026-12-07T10:05:00Z', '10:05:00', 1, '10:10:00'],
    ['due a while ago', '*/5 * * * *', undefined, undefined, '2026-12-07T10:07:10Z', '10:05:00', 1, '10:10:00'],
    ['several missed: the latest runs', '*/5 * * * *', undefined, undefined, '2026-12-07T10:31:00Z', '10:30:00', 6, '10:35:00'],
    ['counted from the last run', '*/5 * * * *', '2026-12-07T10:25:00Z', undefined, '2026-12-07T10:31:00Z', '10:30:00', 1, '10:35:00'],
    ['the last run is the due one', '*/5 * * * *', '2026-12-07T10:30:00Z', undefined, '2026-12-07T10:31:00Z', undefined, 0, '10:35:00'],
    ['within the deadline', '*/5 * * * *', undefined, 120, '2026-12-07T10:31:00Z', '10:30:00', 1, '10:35:00'],
    ['past the deadline: skipped', '*/5 * * * *', undefined, 30, '2026-12-07T10:31:00Z', undefined, 0, '10:35:00'],
    // the window is (now - deadline, now]: a time exactly at its start is out, as upstream
    ['deadline at the edge', '*/5 * * * *', undefined, 60, '2026-12-07T10:31:00Z', undefined, 0, '10:35:00'],
    ['a last run in the future', '*/5 * * * *', '2026-12-07T11:00:00Z', undefined, '2026-12-07T10:31:00Z', undefined, 0, '10:35:00'],
  ] as const)('%s', (_case, spec, last, deadline, now, lastMissed, missed, next) => {
    const r = missedRuns({
      schedule: sched(spec),
      lastScheduleTime: last === undefined ? undefined : t(last),
      creationTimestamp: t(created),
      startingDeadlineSeconds: deadline,
      now: t(now),
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([iso(r.lastMissed), r.missed, iso(r.next)]).toEqual([lastMissed, missed, next]);
  });

  it('gives up past 100 missed times without a deadline (upstream: too many missed start times)', () => {
    const r = missedRuns({ schedule: sched('* * * * *'), creationTimestamp: t(created), now: t('2026-12-07T11:41:00Z') });
    expect(r).toEqual({ ok: false, message: TOO_MANY_MISSED_MESSAGE });
  });

  it('exactly 100 missed times still runs the latest', () => {
    const r = missedRuns({ schedule: sched('* * * * *'), creationTimestamp: t(created), now: t('2026-12-07T11:40:00Z') });
    expect(r.ok && [r.missed, iso(r.lastMissed)]).toEqual([100, '11:40:00']);
  });

  it('a deadline bounds the count: the same outage with startingDeadlineSeconds runs the latest', () => {
    const r = missedRuns({
      schedule: sched('* * * * *'),
      creationTimestamp: t(created),
      startingDeadlineSeconds: 200,
      now: t('2026-12-07T13:00:10Z'),
    });
    expect(r.ok && [r.missed, iso(r.lastMissed)]).toEqual([4, '13:00:00']);
  });
});
