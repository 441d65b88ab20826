/**
 * intstr.IntOrString and the two percentage scalers of the code base. They differ on purpose:
 *
 * - {@link scaleK8s} is apimachinery's `GetScaledValueFromIntOrPercent`: an integer is returned as is; a string must
 *   be `<integer>%` (`"33.5%"` and bare `"5"` are errors).
 * - {@link scaleKruise} is OpenKruise's `util.GetScaledValueFromIntOrPercent`: the same, except that the number
 *   before `%` may be a decimal (`"99.5%"`).
 *
 * Both round the scaled percentage with `ceil` (roundUp) or `floor` using the same float64 arithmetic as Go, and
 * both reject null / undefined.
 */
import { type FieldError, FieldPath, fieldErrors } from './field-errors.js';

/** A JSON number or string, as `intstr.IntOrString` serializes. */
export type IntOrString = number | string;

/** A value that is not a valid int-or-percent for the operation; the message says what was expected. */
export class IntOrStringError extends Error {
  readonly code = 'REGATTA_KUBE_INVALID_INT_OR_STRING';

  constructor(
    readonly value: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'IntOrStringError';
  }
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** Go's `strconv.Atoi` syntax. */
const ATOI_RE = /^[+-]?\d+$/;
/** Go's `strconv.ParseFloat` decimal syntax (hex floats, Inf and NaN are not accepted here: see {@link scaleKruise}). */
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const PERCENT_RE = /^[0-9]+%$/;

function atoi(s: string): number | undefined {
  if (!ATOI_RE.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

function checkInt(v: number): number {
  if (!Number.isInteger(v) || v < INT32_MIN || v > INT32_MAX) {
    throw new IntOrStringError(v, `invalid value for IntOrString: ${v} is not a 32-bit integer; use an integer or a percentage string such as "20%"`);
  }
  return v;
}

function nilError(): IntOrStringError {
  return new IntOrStringError(undefined, 'nil value for IntOrString; set an integer or a percentage such as "20%"');
}

function notPercent(v: string): IntOrStringError {
  return new IntOrStringError(
    v,
    `invalid value for IntOrString: invalid type: string is not a percentage (${JSON.stringify(v)}); ` +
      'write a number without quotes or a percentage such as "20%"',
  );
}

function scale(value: number, total: number, roundUp: boolean): number {
  const x = (value * total) / 100;
  return roundUp ? Math.ceil(x) : Math.floor(x);
}

/**
 * apimachinery `GetScaledValueFromIntOrPercent`: int → as is; `"<int>%"` → ceil/floor(p·total/100); anything else
 * (null, `"5"`, `"33.5%"`, `"abc%"`) throws {@link IntOrStringError}.
 */
export function scaleK8s(v: IntOrString | null | undefined, total: number, roundUp: boolean): number {
  if (v == null) throw nilError();
  if (typeof v === 'number') return checkInt(v);
  if (!v.endsWith('%')) throw notPercent(v);
  const p = atoi(v.slice(0, -1));
  if (p === undefined) {
    throw new IntOrStringError(
      v,
      `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: the percentage must be an integer such as "20%"`,
    );
  }
  return scale(p, total, roundUp);
}

/**
 * OpenKruise `util.GetScaledValueFromIntOrPercent`: like {@link scaleK8s} but the percentage is a float
 * (`"99.5%"` is allowed). Deviation, documented: Go's ParseFloat would also take `"Inf%"`, `"NaN%"` and hex floats,
 * whose scaled value is undefined in Go; they are rejected here.
 */
export function scaleKruise(v: IntOrString | null | undefined, total: number, roundUp: boolean): number {
  if (v == null) throw nilError();
  if (typeof v === 'number') return checkInt(v);
  if (!v.endsWith('%')) throw notPercent(v);
  const s = v.slice(0, -1);
  const p = FLOAT_RE.test(s) ? Number(s) : Number.NaN;
  if (!Number.isFinite(p)) {
    throw new IntOrStringError(
      v,
      `invalid value for IntOrString: invalid value ${JSON.stringify(v)}: the percentage must be a number such as "20%" or "12.5%"`,
    );
  }
  return scale(p, total, roundUp);
}

/**
 * OpenKruise `CalculatePartitionReplicas` (`partitionOf`): null → 0; replicas default 1;
 * `scaleKruise(partition, replicas, roundUp=true)`; a percentage other than exactly `"100%"` that reaches `replicas`
 * (with replicas > 1) is lowered by one so at least one pod is updated; the result is clamped to [0, replicas].
 * Throws {@link IntOrStringError} for an invalid partition.
 */
export function partitionOf(partition: IntOrString | null | undefined, replicas: number | null | undefined): number {
  if (partition == null) return 0;
  const r = replicas ?? 1;
  let p = scaleKruise(partition, r, true);
  if (r > 1 && p === r && typeof partition === 'string' && partition !== '100%') p = r - 1;
  return Math.max(Math.min(p, r), 0);
}

/** `intstr.Parse`: a string that is an integer becomes a number, anything else stays a string. */
export function parseIntOrString(s: string): IntOrString {
  const n = atoi(s);
  return n !== undefined && n >= INT32_MIN && n <= INT32_MAX ? n : s;
}

/** True for a string ending in `%`. */
export function isPercent(v: IntOrString | null | undefined): v is string {
  return typeof v === 'string' && v.endsWith('%');
}

/**
 * The integer value of an int-only field that also accepts numeric strings (ImagePullJob `parallelism`,
 * `imagePreDownloadParallelism`): `5` and `"5"` → 5; percentages and other strings throw {@link IntOrStringError}.
 */
export function intOrStringToInt(v: IntOrString): number {
  if (typeof v === 'number') return checkInt(v);
  const n = atoi(v);
  if (n === undefined || n < INT32_MIN || n > INT32_MAX) {
    throw new IntOrStringError(v, `${JSON.stringify(v)} is not an integer; percentages are not allowed here, write a whole number such as 5`);
  }
  return n;
}

const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/**
 * apps validation `ValidatePositiveIntOrPercent`: an integer must be ≥ 0, a string must be `<digits>%`
 * (so `"5"`, `"-5%"` and `"1.5%"` are rejected).
 */
export function validatePositiveIntOrPercent(v: IntOrString, path: FieldPath | string): FieldError[] {
  const p = typeof path === 'string' ? FieldPath.root(path) : path;
  if (typeof v === 'string') return PERCENT_RE.test(v) ? [] : [fieldErrors.invalid(p, v, PERCENT_MSG)];
  if (typeof v === 'number' && Number.isInteger(v)) {
    return v >= 0 ? [] : [fieldErrors.invalid(p, v, 'must be greater than or equal to 0')];
  }
  return [fieldErrors.invalid(p, v, "must be an integer or percentage (e.g '5%')")];
}

/** apps validation `IsNotMoreThan100Percent`: only a valid percentage string is checked. */
export function validateNotMoreThan100Percent(v: IntOrString, path: FieldPath | string): FieldError[] {
  if (typeof v !== 'string' || !PERCENT_RE.test(v)) return [];
  const n = Number(v.slice(0, -1));
  if (n <= 100) return [];
  return [fieldErrors.invalid(typeof path === 'string' ? FieldPath.root(path) : path, v, 'must not be greater than 100%')];
}
