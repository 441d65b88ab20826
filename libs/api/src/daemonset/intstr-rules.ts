/**
 * The int-or-percent rules of the DaemonSet webhook (`pkg/webhook/daemonset/validating/daemonset_validation.go`)
 * over apps validation's `ValidatePositiveIntOrPercent` / `IsNotMoreThan100Percent`.
 */
import { type FieldError, type FieldPath, type IntOrString, fieldErrors, validateNotMoreThan100Percent, validatePositiveIntOrPercent } from '@regatta/kube';

const PERCENT_RE = /^[0-9]+%$/;

/**
 * Whether a maxUnavailable / maxSurge value counts as zero: `0` or a valid percentage of 0 (`"0%"`). Upstream
 * (`getIntOrPercentValue`) also reads any string that is neither a percentage nor an integer (`"abc"`, `"-5%"`) and
 * the string `"0"` as zero, so it never validates them and the controller later fails to scale them; Regatta counts
 * them as set, so they are rejected with their path (docs/adr/0019-daemonset-versions-and-admission.md).
 */
export function isZeroIntOrPercent(v: IntOrString): boolean {
  if (typeof v === 'number') return v === 0;
  return PERCENT_RE.test(v) && Number(v.slice(0, -1)) === 0;
}

/** A positive (≥ 0) int or a `<digits>%` percentage of at most 100%. */
export function positiveIntOrPercentUpTo100(v: IntOrString, path: FieldPath): FieldError[] {
  return [...validatePositiveIntOrPercent(v, path), ...validateNotMoreThan100Percent(v, path)];
}

/** `validateNonnegativeIntOrPercent` + `IsNotMoreThan100Percent` (partition). */
export function nonNegativeIntOrPercentUpTo100(v: IntOrString, path: FieldPath): FieldError[] {
  if (typeof v === 'number') return v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];
  return positiveIntOrPercentUpTo100(v, path);
}
