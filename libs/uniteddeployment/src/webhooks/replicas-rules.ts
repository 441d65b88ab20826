/**
 * The subsets' replica settings (OpenKruise `validateSubsetReplicasV1beta1`,
 * `pkg/webhook/uniteddeployment/validating/uniteddeployment_validation.go`): `replicas` and `minReplicas` /
 * `maxReplicas` are exclusive; capacity mode needs `spec.replicas` and one unlimited subset; replica mode may not
 * specify more than `spec.replicas`, and exactly that when every subset is specified.
 */
import { type FieldError, type FieldPath, fieldErrors } from '@regatta/kube';
import { UNLIMITED_MAX_REPLICAS_FOR_VALIDATION, type Subset } from '@regatta/api';
import { SubsetReplicasError } from '../errors.js';
import { parseSubsetReplicas } from '../allocation/parse.js';

function parsed(
  ud: number,
  value: number | string,
  path: FieldPath,
  errs: FieldError[],
  fallback: number,
): number {
  try {
    return parseSubsetReplicas(ud, value);
  } catch (err) {
    if (!(err instanceof SubsetReplicasError)) throw err;
    errs.push(fieldErrors.invalid(path, value, err.message));
    return fallback;
  }
}

/** `udReplicas` undefined means `spec.replicas` unset; `path` is `spec.topology.subsets`. */
export function subsetReplicasErrors(
  udReplicas: number | undefined,
  subsets: readonly Subset[],
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const expected = udReplicas ?? -1;
  let sumReplicas = 0;
  let sumMin = 0;
  let sumMax = 0;
  let countReplicas = 0;
  let countMax = 0;
  let hasReplicas = false;
  let hasCapacity = false;
  subsets.forEach((s, i) => {
    let replicas = 0;
    if (s.replicas != null) {
      countReplicas++;
      hasReplicas = true;
      replicas = parsed(expected, s.replicas, path.index(i).child('replicas'), errs, 0);
    }
    sumReplicas += replicas;
    let min = 0;
    if (s.minReplicas != null) {
      hasCapacity = true;
      min = parsed(expected, s.minReplicas, path.index(i).child('minReplicas'), errs, 0);
    }
    sumMin += min;
    let max = UNLIMITED_MAX_REPLICAS_FOR_VALIDATION;
    if (s.maxReplicas != null) {
      countMax++;
      hasCapacity = true;
      max = parsed(expected, s.maxReplicas, path.index(i).child('maxReplicas'), errs, 0);
    }
    sumMax += max;
    if (min > max) {
      errs.push(
        fieldErrors.invalid(
          path.index(i).child('minReplicas'),
          s.minReplicas ?? null,
          `subset[${i}].minReplicas must be less than or equal to maxReplicas`,
        ),
      );
    }
  });

  if (hasReplicas && hasCapacity) {
    errs.push(
      fieldErrors.invalid(
        path,
        subsets,
        'subset.Replicas and subset.MinReplicas/subset.MaxReplicas are mutually exclusive in a UnitedDeployment',
      ),
    );
    return errs;
  }
  if (hasCapacity) {
    if (expected === -1) {
      errs.push(
        fieldErrors.invalid(
          path,
          expected,
          'spec.replicas must be not empty if you set subset.minReplicas/maxReplicas',
        ),
      );
    }
    if (countMax >= subsets.length)
      errs.push(fieldErrors.invalid(path, countMax, 'at least one subset.maxReplicas must be empty'));
    if (sumMin > sumMax) {
      errs.push(
        fieldErrors.invalid(
          path,
          sumMin,
          'sum of indicated subset.minReplicas should not be greater than sum of indicated subset.maxReplicas',
        ),
      );
    }
  } else if (expected !== -1) {
    if (sumReplicas > expected) {
      errs.push(
        fieldErrors.invalid(
          path,
          sumReplicas,
          `sum of indicated subset replicas ${sumReplicas} should not be greater than UnitedDeployment replicas ${expected}`,
        ),
      );
    }
    if (countReplicas > 0 && countReplicas === subsets.length && sumReplicas !== expected) {
      errs.push(
        fieldErrors.invalid(
          path,
          sumReplicas,
          `if replicas of all subsets are provided, the sum of indicated subset replicas ${sumReplicas} should equal UnitedDeployment replicas ${expected}`,
        ),
      );
    }
  } else if (countReplicas !== subsets.length) {
    errs.push(
      fieldErrors.invalid(
        path,
        sumReplicas,
        'if UnitedDeployment replicas is not provided, replicas of all subsets should be provided',
      ),
    );
  }
  return errs;
}
