import { describe, expect, it } from 'vitest';
import { parseCronSchedule, parseGoDuration, timeZoneProblem, type CronFieldsSchedule } from './cron.js';

const fields = (spec: string): CronFieldsSchedule => {
  const r = parseCronSchedule(spec);
  if (!r.ok || r.schedule.kind !== 'fields') throw new Error(`${spec}: ${r.ok ? 'not fields' : r.message}`);
  return r.schedule;
};
const sorted = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b);

describe('parseCronSchedule', () => {
  it.each([
    ['*/15 * * * *', 'minute', [0, 15, 30, 45]],
    ['5/15 * * * *', 'minute', [5, 20, 35, 50]],
    ['0,30 * * * *', 'minute', [0, 30]],
    ['10-12 * * * *', 'minute', [10, 11, 12]],
    ['20-35/15 * * * *', 'minute', [20, 35]],
    ['0 1/6 * * *', 'hour', [1, 7, 13, 19]],
    ['0 0 */10 * *', 'dayOfMonth', [1, 11, 21, 31]],
    ['0 0 1 Jan,MAR,dec *', 'month', [1, 3, 12]],
    ['0 0 1 apr-jun *', 'month', [4, 5, 6]],
    ['0 0 * * MON-fri', 'dayOfWeek', [1, 2, 3, 4, 5]],
    ['0 0 * * sun', 'dayOfWeek', [0]],
  ] as const)('%s → %s %j', (spec, field, values) => {
    expect(sorted(fields(spec)[field])).toEqual(values);
  });

  it.each([
    ['* * * * *', true, true],
    ['? ? ? ? ?', true, true],
    ['0 0 1 * *', false, true],
    ['0 0 * * 1', true, false],
    ['0 0 1,15 * Sun', false, false],
    // a step over * is a restriction (cron: `*/2` days of month are not "any day")
    ['0 0 */2 * Sun', false, false],
    ['0 0 */1 * *', true, true],
  ] as const)('%s: day fields any = %s, %s', (spec, dom, dow) => {
    const s = fields(spec);
    expect([s.dayOfMonthAny, s.dayOfWeekAny]).toEqual([dom, dow]);
  });

  it.each([
    ['@yearly', '0 0 1 1 *'],
    ['@annually', '0 0 1 1 *'],
    ['@monthly', '0 0 1 * *'],
    ['@weekly', '0 0 * * 0'],
    ['@daily', '0 0 * * *'],
    ['@midnight', '0 0 * * *'],
    ['@hourly', '0 * * * *'],
  ])('descriptor %s is %s', (descriptor, spec) => {
    expect(parseCronSchedule(descriptor)).toEqual(parseCronSchedule(spec));
  });

  it.each([
    ['@every 1h30m', 5_400_000],
    ['@every 90s', 90_000],
    ['@every 1.5s', 1_000],
    ['@every 100ms', 1_000],
  ])('%s: every %d ms', (spec, everyMs) => {
    expect(parseCronSchedule(spec)).toEqual({ ok: true, schedule: { kind: 'every', everyMs, timeZone: 'UTC' } });
  });

  it.each([
    ['TZ=Asia/Shanghai 0 8 * * *', 'Asia/Shanghai'],
    ['CRON_TZ=America/New_York @daily', 'America/New_York'],
    ['0 8 * * *', 'UTC'],
  ])('%s runs in %s', (spec, zone) => {
    const r = parseCronSchedule(spec);
    expect(r.ok && r.schedule.timeZone).toBe(zone);
  });

  it('takes the time zone given when the text names none', () => {
    const r = parseCronSchedule('0 8 * * *', 'Europe/Paris');
    expect(r.ok && r.schedule.timeZone).toBe('Europe/Paris');
  });

  it.each([
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23)'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1)'],
    ['* * * 13 *', 'end of range (13) above maximum (12)'],
    ['* * * * 7', 'end of range (7) above maximum (6)'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1)'],
    ['*/0 * * * *', 'step of range should be a positive number'],
    ['a * * * *', 'failed to parse int from a'],
    ['1-2-3 * * * *', 'too many hyphens'],
    ['*/2/3 * * * *', 'too many slashes'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every forever', 'failed to parse duration @every forever'],
    ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus'],
    ['TZ=UTC', 'provided bad location'],
  ])('refuses %j: %s', (spec, message) => {
    const r = parseCronSchedule(spec);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toContain(message);
  });
});

describe('parseGoDuration', () => {
  it.each([
    ['0', 0],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['-2m', -120_000],
    ['+1.5s', 1_500],
    ['250ms', 250],
    ['1000us', 1],
  ])('%s = %d ms', (text, ms) => expect(parseGoDuration(text)).toBe(ms));

  it.each(['', '1', 'h', '1d', '1h-2m', '.s'])('refuses %j', (text) => expect(parseGoDuration(text)).toBeUndefined());
});

describe('timeZoneProblem', () => {
  it.each(['UTC', 'Asia/Shanghai', 'America/New_York', 'Europe/London'])('%s is known', (zone) =>
    expect(timeZoneProblem(zone)).toBeUndefined(),
  );
  it.each([
    ['', 'timeZone must be nil or non-empty string'],
    ['Local', 'timeZone must be an explicit time zone'],
    ['local', 'timeZone must be an explicit time zone'],
    ['Mars/Olympus', 'unknown time zone Mars/Olympus'],
  ])('%j: %s', (zone, message) => expect(timeZoneProblem(zone)).toContain(message));
});
