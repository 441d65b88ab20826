/**
 * The `spec.schedule` syntax of an AdvancedCronJob, as OpenKruise reads it (`pkg/controller/advancedcronjob`
 * `formatSchedule` and the validating webhook, both through robfig/cron's standard parser): five fields — minute,
 * hour, day of month, month, day of week — each `*`, `?`, a value, a range `a-b`, a step `x/n` or a comma list of
 * those, month and weekday names (`JAN`, `sun`, case-insensitive); the descriptors `@yearly` (`@annually`),
 * `@monthly`, `@weekly`, `@daily` (`@midnight`), `@hourly` and `@every <duration>` (Go duration syntax); and an
 * optional `TZ=<zone>` or `CRON_TZ=<zone>` prefix. Time zones are IANA names, checked with `Intl`.
 *
 * Parsing is part of the API (admission rejects what does not parse, with the field path); when the next run falls
 * is the controller's (libs/advancedcronjob `schedule/`).
 */

/** A parsed five-field schedule: the allowed values of each field, in its time zone. */
export interface CronFieldsSchedule {
  readonly kind: 'fields';
  readonly minute: ReadonlySet<number>;
  readonly hour: ReadonlySet<number>;
  readonly dayOfMonth: ReadonlySet<number>;
  readonly month: ReadonlySet<number>;
  /** 0 = Sunday. */
  readonly dayOfWeek: ReadonlySet<number>;
  /**
   * Whether day-of-month / day-of-week were written as an unrestricted `*` or `?`: when either is, a day must match
   * both; when both are restricted, matching either is enough (cron's rule).
   */
  readonly dayOfMonthAny: boolean;
  readonly dayOfWeekAny: boolean;
  readonly timeZone: string;
}

/** `@every <duration>`: a fixed delay (whole seconds, at least one) after the previous time. */
export interface CronEverySchedule {
  readonly kind: 'every';
  readonly everyMs: number;
  readonly timeZone: string;
}

export type CronSchedule = CronFieldsSchedule | CronEverySchedule;

export type CronParseResult = { readonly ok: true; readonly schedule: CronSchedule } | { readonly ok: false; readonly message: string };

/** The zone a schedule without `TZ=` and without `spec.timeZone` runs in (the manager's local zone upstream; UTC here). */
export const DEFAULT_CRON_TIME_ZONE = 'UTC';

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAY_NAMES.map((n, i) => [n, i])) },
];

class CronSyntaxError extends Error {}

/** Whether `Intl` knows the zone. `Local` and the empty string are not explicit zones. */
export function timeZoneProblem(zone: string): string | undefined {
  if (zone === '') return 'timeZone must be nil or non-empty string';
  if (zone.toLowerCase() === 'local') return 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return `unknown time zone ${zone}`;
  }
}

function parseNumber(text: string, b: Bounds): number {
  const named = b.names?.[text.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^[0-9]+$/.test(text)) throw new CronSyntaxError(`failed to parse int from ${text}`);
  return Number(text);
}

/** One comma-separated term: `*`, `?`, `a`, `a-b`, each with an optional `/step`. Returns whether it was a bare `*`. */
function addTerm(term: string, b: Bounds, into: Set<number>): boolean {
  const [rangePart = '', stepPart, extra] = term.split('/');
  if (extra !== undefined) throw new CronSyntaxError(`too many slashes: ${term}`);
  const bounds = rangePart.split('-');
  if (bounds.length > 2) throw new CronSyntaxError(`too many hyphens: ${term}`);
  let start: number;
  let end: number;
  let star = false;
  if (rangePart === '*' || rangePart === '?') {
    [start, end, star] = [b.min, b.max, true];
  } else {
    start = parseNumber(bounds[0] ?? '', b);
    end = bounds.length === 2 ? parseNumber(bounds[1] ?? '', b) : start;
  }
  let step = 1;
  if (stepPart !== undefined) {
    step = parseNumber(stepPart, {min: 0, max: 0});
    // `a/n` means from a to the field's maximum
    if (bounds.length === 1 && !star) end = b.max;
    if (step > 1) star = false;
  }
  if (start < b.min) throw new CronSyntaxError(`beginning of range (${start}) below minimum (${b.min}): ${term}`);
  if (end > b.max) throw new CronSyntaxError(`end of range (${end}) above maximum (${b.max}): ${term}`);
  if (start > end) throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${term}`);
  if (step === 0) throw new CronSyntaxError(`step of range should be a positive number: ${term}`);
  for (let v = start; v <= end; v += step) into.add(v);
  return star;
}

function parseField(text: string, b: Bounds): { values: Set<number>; any: boolean } {
  const values = new Set<number>();
  let any = false;
  for (const term of text.split(',')) any = addTerm(term, b, values) || any;
  return { values, any };
}

const DURATION_UNITS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3,
  'μs': 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration (`1h30m`, `90s`, `1.5h`, `-2m`, `0`) in milliseconds; undefined when it does not parse. */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest.startsWith('-')) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  const term = /^([0-9]*(?:\.[0-9]*)?)([a-zµμ]+)/;
  while (rest !== '') {
    const m = term.exec(rest);
    if (!m || m[1] === '' || m[1] === '.') return undefined;
    const unit = DURATION_UNITS[m[2] ?? ''];
    if (unit === undefined) return undefined;
    total += Number(m[1]) * unit;
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

function parseBody(body: string, timeZone: string): CronSchedule {
  if (body.startsWith('@')) {
    if (body.startsWith('@every ')) {
      const ms = parseGoDuration(body.slice('@every '.length).trim());
      if (ms === undefined) throw new CronSyntaxError(`failed to parse duration ${body}`);
      // below a second runs every second; sub-second parts are dropped
      const everyMs = Math.max(1000, ms - (ms % 1000));
      return { kind: 'every', everyMs, timeZone };
    }
    const fields = DESCRIPTORS[body];
    if (fields === undefined) throw new CronSyntaxError(`unrecognized descriptor: ${body}`);
    return parseBody(fields, timeZone);
  }
  const parts = body.split(/\s+/).filter((p) => p !== '');
  if (parts.length !== 5) throw new CronSyntaxError(`expected exactly 5 fields, found ${parts.length}: [${parts.join(' ')}]`);
  const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i] as Bounds)) as [
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
    ReturnType<typeof parseField>,
  ];
  return {
    kind: 'fields',
    minute: minute.values,
    hour: hour.values,
    dayOfMonth: dom.values,
    month: month.values,
    dayOfWeek: dow.values,
    dayOfMonthAny: dom.any,
    dayOfWeekAny: dow.any,
    timeZone,
  };
}

/**
 * Parses a schedule as the controller runs it: `TZ=`/`CRON_TZ=` in the text wins, else `timeZone`, else
 * {@link DEFAULT_CRON_TIME_ZONE}.
 */
export function parseCronSchedule(schedule: string, timeZone?: string): CronParseResult {
  let body = schedule.trim();
  if (body === '') return { ok: false, message: 'empty spec string' };
  let zone = timeZone ?? DEFAULT_CRON_TIME_ZONE;
  if (body.startsWith('TZ=') || body.startsWith('CRON_TZ=')) {
    const space = body.indexOf(' ');
    if (space < 0) return { ok: false, message: `provided bad location ${body}: missing schedule after the time zone` };
    zone = body.slice(body.indexOf('=') + 1, space);
    body = body.slice(space).trim();
    if (zone === '' || timeZoneProblem(zone) !== undefined) {
      return { ok: false, message: `provided bad location ${zone}: unknown time zone ${zone}` };
    }
  }
  try {
    return { ok: true, schedule: parseBody(body, zone) };
  } catch (err) {
    if (err instanceof CronSyntaxError) return { ok: false, message: err.message };
    throw err;
  }
}
