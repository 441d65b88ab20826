/**
 * OpenKruise's `util.GetScaledValueFromIntOrPercent` with Go's error texts, as the CloneSet webhook reports them
 * (`failed GetScaledValueFromIntOrPercent for partition: invalid type: string is not a percentage`).
 */
import { scaleKruise, type IntOrString } from '@regatta/kube';

export type ScaledValue = { value: number; error?: undefined } | { value: 0; error: string };

/** Go's `strconv.ParseFloat` decimal syntax (special values and hex floats are treated as syntax errors here). */
const FLOAT_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function kruiseScaledValue(v: IntOrString | null | undefined, total: number, roundUp: boolean): ScaledValue {
  if (v == null) return { value: 0, error: 'nil value for IntOrString' };
  if (typeof v === 'number') return { value: v };
  if (!v.endsWith('%')) return { value: 0, error: 'invalid type: string is not a percentage' };
  const s = v.slice(0, -1);
  if (!FLOAT_RE.test(s)) return { value: 0, error: `strconv.ParseFloat: parsing ${JSON.stringify(s)}: invalid syntax` };
  if (!Number.isFinite(Number(s))) return { value: 0, error: `strconv.ParseFloat: parsing ${JSON.stringify(s)}: value out of range` };
  return { value: scaleKruise(v, total, roundUp) };
}

/** `intstr.IntOrString.String()`: the decimal form of an int, the string itself otherwise. */
export function intOrStringText(v: IntOrString | null | undefined): string {
  return v == null ? '<nil>' : String(v);
}
