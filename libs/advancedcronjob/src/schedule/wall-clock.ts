/**
 * Wall-clock readings of an instant in an IANA time zone, through `Intl` (no time zone database of our own), and
 * the start of a local day. UTC is read directly.
 */

export interface WallClock {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** 0 = Sunday. */
  readonly weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(zone, f);
  }
  return f;
}

const isUtc = (zone: string): boolean => zone === 'UTC' || zone === 'Etc/UTC';

/** The wall clock in `zone` at `ms` (epoch milliseconds). */
export function wallClockAt(ms: number, zone: string): WallClock {
  if (isUtc(zone)) {
    const d = new Date(ms);
    return {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      weekday: d.getUTCDay(),
    };
  }
  const parts: Record<string, string> = {};
  for (const p of formatterOf(zone).formatToParts(ms)) parts[p.type] = p.value;
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    hour: Number(parts['hour']),
    minute: Number(parts['minute']),
    weekday: WEEKDAYS[parts['weekday'] ?? ''] ?? 0,
  };
}

/** `zone`'s offset from UTC at `ms`, in milliseconds (whole minutes). */
function offsetAt(ms: number, zone: string): number {
  const w = wallClockAt(ms, zone);
  const floored = Math.floor(ms / 60_000) * 60_000;
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute) - floored;
}

const dayNumber = (w: { year: number; month: number; day: number }): number => Date.UTC(w.year, w.month - 1, w.day);

/**
 * The first instant whose local date in `zone` is the given day or later: local midnight, or — where midnight
 * falls in a daylight-saving gap — the end of the gap. `month` may be 13 (January of the next year), `day` past the
 * month's end (the next month), as `Date.UTC` reads them.
 */
export function startOfLocalDay(year: number, month: number, day: number, zone: string): number {
  const local = Date.UTC(year, month - 1, day);
  if (isUtc(zone)) return local;
  // the day's number is its UTC midnight (Date.UTC has already carried month 13 or day 32 over)
  const target = local;
  const first = local - offsetAt(local, zone);
  const second = local - offsetAt(first, zone);
  const onOrAfter = (ms: number) => dayNumber(wallClockAt(ms, zone)) >= target;
  const candidates = [first, second].filter((ms) => {
    const w = wallClockAt(ms, zone);
    return dayNumber(w) === target && w.hour === 0 && w.minute === 0;
  });
  if (candidates.length > 0) return Math.min(...candidates);
  // midnight does not exist that day: the day starts where the clock jumps, between the two guesses
  let lo = Math.min(first, second) - 3_600_000;
  let hi = Math.max(first, second) + 3_600_000;
  while (hi - lo > 60_000) {
    const mid = Math.floor((lo + hi) / 2 / 60_000) * 60_000;
    if (onOrAfter(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
