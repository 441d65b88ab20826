/**
 * Reading a subset's `replicas` / `minReplicas` / `maxReplicas` (OpenKruise `ParseSubsetReplicas`,
 * `pkg/controller/uniteddeployment/uniteddeployment_controller_utils.go`).
 */
import { SubsetReplicasError } from '../errors.js';

/**
 * The replicas a subset value stands for. A number is taken as is (≥ 0). A string must be an integer percentage
 * `"N%"` in [0, 100] of `udReplicas`, rounded half up (25% of 3 → 1); it needs `spec.replicas`, passed as -1 when
 * unset. Throws {@link SubsetReplicasError} with OpenKruise's message otherwise.
 */
export function parseSubsetReplicas(udReplicas: number, value: number | string): number {
  if (typeof value === 'number') {
    if (value < 0) throw new SubsetReplicasError(`subset replicas (${value}) should not be less than 0`);
    return value;
  }
  if (udReplicas < 0) {
    throw new SubsetReplicasError(
      `subsetReplicas (${value}) should not be string when unitedDeployment replicas is empty`,
    );
  }
  if (!value.endsWith('%')) {
    throw new SubsetReplicasError(
      `subset replicas (${value}) only support integer value or percentage value with a suffix '%'`,
    );
  }
  const intPart = value.slice(0, -1);
  // Go's strconv.ParseInt(s, 10, 32): an optional sign and decimal digits only
  const syntaxOk = /^[+-]?\d+$/.test(intPart);
  const percent = Number(intPart);
  if (!syntaxOk || percent < -(2 ** 31) || percent > 2 ** 31 - 1) {
    const why = syntaxOk ? 'value out of range' : 'invalid syntax';
    throw new SubsetReplicasError(
      `subset replicas (${value}) should be correct percentage integer: strconv.ParseInt: parsing ${JSON.stringify(intPart)}: ${why}`,
    );
  }
  if (percent > 100 || percent < 0)
    throw new SubsetReplicasError(`subset replicas (${value}) should be in range [0, 100]`);
  return Math.floor((udReplicas * percent) / 100 + 0.5);
}

/** {@link parseSubsetReplicas}, or `fallback` when the value cannot be read (the allocators ignore such values). */
export function parseSubsetReplicasOr(udReplicas: number, value: number | string, fallback: number): number {
  try {
    return parseSubsetReplicas(udReplicas, value);
  } catch (err) {
    if (err instanceof SubsetReplicasError) return fallback;
    throw err;
  }
}
