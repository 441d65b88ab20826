/**
 * The admission rules, checked again by the reconciler (as CloneSet's, docs/cloneset.md "Validation"): with the
 * webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on such a
 * UnitedDeployment is harmful or silently stuck (negative replicas, subsets of the same name, a subset replica count
 * above the total, a selector the subset template does not match: subset workloads the UnitedDeployment cannot find
 * again). The reconciler does not act on a UnitedDeployment that fails validation and says why instead (an
 * `InvalidSpec` event; docs/uniteddeployment.md "Validation").
 *
 * The validator never throws for any JSON (webhooks/validation.fuzz.test.ts); should it still throw, the error is
 * the problem reported, so a bad object is never retried hot.
 */
import { formatFieldError } from '@regatta/kube';
import type { UnitedDeployment } from '@regatta/api';
import { defaultUnitedDeploymentForAdmission } from './webhooks/defaults.js';
import { validateUnitedDeployment } from './webhooks/validation.js';

/** The reason of the Warning event a UnitedDeployment that fails validation gets. */
export const INVALID_SPEC_REASON = 'InvalidSpec';

/** A user-facing reason not to act on the UnitedDeployment, or undefined when it passes the admission rules. */
export function specProblem(ud: UnitedDeployment): string | undefined {
  let errors;
  try {
    // as the validating webhook sees it: after the mutating one (shorthands converted, defaults added)
    const { object } = defaultUnitedDeploymentForAdmission({ operation: 'CREATE', object: ud });
    errors = validateUnitedDeployment(object);
  } catch (err) {
    return `the UnitedDeployment could not be validated (${err instanceof Error ? err.message : String(err)}); check its spec against the UnitedDeployment schema`;
  }
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, 3).map(formatFieldError).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

/** Remembers the verdict per UnitedDeployment generation, so a reconcile does not validate the template again. */
export class SpecGuard {
  readonly #verdicts = new Map<string, { uid: string; generation: number; problem: string | undefined }>();

  problem(key: string, ud: UnitedDeployment): string | undefined {
    const uid = ud.metadata?.uid ?? '';
    const generation = ud.metadata?.generation ?? 0;
    const known = this.#verdicts.get(key);
    if (known && known.uid === uid && known.generation === generation) return known.problem;
    const problem = specProblem(ud);
    this.#verdicts.set(key, { uid, generation, problem });
    return problem;
  }

  forget(key: string): void {
    this.#verdicts.delete(key);
  }
}
