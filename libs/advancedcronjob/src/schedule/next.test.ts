import { parseCronSchedule } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { nextScheduleTime } from './next.js';
import { startOfLocalDay, wallClockAt } from './wall-clock.js';

const next = (spec: string, after: string, zone?: string): string | undefined => {
  const r = parseCronSchedule(spec, zone);
  if (!r.ok) throw new Error(r.message);
  const t = nextScheduleTime(r.schedule, Date.parse(after));
  return t === undefined ? undefined : new Date(t).toISOString();
};

describe('nextScheduleTime', () => {
  it.each([
    // [schedule, after, next] — UTC
    ['*/1 * * * *', '2026-12-07T12:00:00Z', '2026-12-07T12:01:00.000Z'],
    ['*/1 * * * *', '2026-12-07T12:00:30.500Z', '2026-12-07T12:01:00.000Z'],
    ['0/15 * * * *', '2012-07-09T14:45:00Z', '2012-07-09T15:00:00.000Z'],
    ['0/15 * * * *', '2012-07-09T14:59:59Z', '2012-07-09T15:00:00.000Z'],
    ['20-35/15 * * * *', '2012-07-09T15:45:00Z', '2012-07-09T16:20:00.000Z'],
    ['*/15 * * * *', '2012-07-09T23:46:00Z', '2012-07-10T00:00:00.000Z'],
    ['20-35/15 * * * *', '2012-07-09T23:45:00Z', '2012-07-10T00:20:00.000Z'],
    ['20-35/15 1/2 * * *', '2012-07-09T23:35:51Z', '2012-07-10T01:20:00.000Z'],
    ['20-35/15 10-12 * * *', '2012-07-09T23:35:51Z', '2012-07-10T10:20:00.000Z'],
    ['20-35/15 1/2 */2 * *', '2012-07-09T23:35:51Z', '2012-07-11T01:20:00.000Z'],
    ['20-35/15 * 9-20 Jul *', '2012-07-09T23:35:51Z', '2012-07-10T00:20:00.000Z'],
    // wrap around months, days of week, leap years
    ['0 0 9 Apr-Oct ?', '2012-07-09T23:35:00Z', '2012-08-09T00:00:00.000Z'],
    ['0 0 */5 Apr,Aug,Oct Mon', '2012-07-09T23:35:00Z', '2012-08-01T00:00:00.000Z'],
    ['0 0 */5 Oct Mon', '2012-07-09T23:35:00Z', '2012-10-01T00:00:00.000Z'],
    ['0 0 * Feb Mon', '2012-07-09T23:35:00Z', '2013-02-04T00:00:00.000Z'],
    ['0 0 * Feb Mon/2', '2012-07-09T23:35:00Z', '2013-02-01T00:00:00.000Z'],
    ['* * * * *', '2012-12-31T23:59:45Z', '2013-01-01T00:00:00.000Z'],
    ['0 0 29 Feb ?', '2012-07-09T23:35:00Z', '2016-02-29T00:00:00.000Z'],
    ['@hourly', '2026-12-07T12:00:00Z', '2026-12-07T13:00:00.000Z'],
    ['@daily', '2026-12-07T12:00:00Z', '2026-12-08T00:00:00.000Z'],
    ['@weekly', '2026-12-07T12:00:00Z', '2026-12-13T00:00:00.000Z'],
    ['@monthly', '2026-12-07T12:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['@yearly', '2026-12-07T12:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['@every 90s', '2026-12-07T12:00:00.700Z', '2026-12-07T12:01:30.000Z'],
    // never within five years
    ['0 0 30 Feb *', '2026-12-07T12:00:00Z', undefined],
  ])('%s after %s: %s', (spec, after, want) => {
    expect(next(spec, after)).toBe(want);
  });

  it.each([
    // [schedule, after, next] in America/New_York: spring forward 2012-03-11 02:00 → 03:00, fall back 2012-11-04 02:00 → 01:00
    ['30 2 11 Mar ?', '2012-03-11T05:00:00Z', '2013-03-11T06:30:00.000Z'], // 02:30 does not exist that day
    ['0 * * * ?', '2012-03-11T05:00:00Z', '2012-03-11T06:00:00.000Z'], // 01:00 EST
    ['0 * * * ?', '2012-03-11T06:00:00Z', '2012-03-11T07:00:00.000Z'], // then 03:00 EDT
    ['0 1 * * ?', '2012-03-11T06:00:00Z', '2012-03-12T05:00:00.000Z'],
    ['0 2 * * ?', '2012-03-11T05:00:00Z', '2012-03-12T06:00:00.000Z'], // 02:00 skipped on the 11th
    ['30 2 04 Nov ?', '2012-11-04T04:00:00Z', '2012-11-04T07:30:00.000Z'],
    ['30 1 04 Nov ?', '2012-11-04T05:45:00Z', '2012-11-04T06:30:00.000Z'], // the repeated 01:30, EST
    ['0 * * * ?', '2012-11-04T05:00:00Z', '2012-11-04T06:00:00.000Z'], // 01:00 EDT → 01:00 EST
    ['0 1 * * ?', '2012-11-04T05:00:00Z', '2012-11-04T06:00:00.000Z'],
    ['0 1 * * ?', '2012-11-04T06:00:00Z', '2012-11-05T06:00:00.000Z'],
    ['0 2 * * ?', '2012-11-04T04:00:00Z', '2012-11-04T07:00:00.000Z'],
  ])('America/New_York %s after %s: %s', (spec, after, want) => {
    expect(next(spec, after, 'America/New_York')).toBe(want);
    expect(next(`TZ=America/New_York ${spec}`, after)).toBe(want);
  });

  it.each([
    ['0 8 * * *', 'Asia/Shanghai', '2026-12-07T00:00:00Z', '2026-12-08T00:00:00.000Z'],
    ['0 8 * * *', 'Asia/Shanghai', '2026-12-06T23:59:00Z', '2026-12-07T00:00:00.000Z'],
    ['0 0 * * *', 'Asia/Kolkata', '2026-12-07T00:00:00Z', '2026-12-07T18:30:00.000Z'],
    ['0 0 1 * *', 'Australia/Sydney', '2026-12-07T00:00:00Z', '2026-12-31T13:00:00.000Z'],
  ])('%s in %s after %s: %s', (spec, zone, after, want) => {
    expect(next(spec, after, zone)).toBe(want);
  });
});

describe('startOfLocalDay', () => {
  it.each([
    [2026, 12, 8, 'UTC', '2026-12-08T00:00:00.000Z'],
    [2026, 12, 8, 'Asia/Shanghai', '2026-12-07T16:00:00.000Z'],
    [2026, 13, 1, 'Asia/Shanghai', '2026-12-31T16:00:00.000Z'],
    [2012, 3, 11, 'America/New_York', '2012-03-11T05:00:00.000Z'],
    // Havana's clocks jump from midnight to 01:00 in spring: the day starts at the jump
    [2023, 3, 12, 'America/Havana', '2023-03-12T05:00:00.000Z'],
  ])('%d-%d-%d in %s starts %s', (y, m, d, zone, want) => {
    expect(new Date(startOfLocalDay(y, m, d, zone)).toISOString()).toBe(want);
  });

  it('reads the wall clock of a zone', () => {
    expect(wallClockAt(Date.parse('2026-12-07T12:34:00Z'), 'Asia/Shanghai')).toEqual({
      year: 2026,
      month: 12,
      day: 7,
      hour: 20,
      minute: 34,
      weekday: 1,
    });
  });
});
