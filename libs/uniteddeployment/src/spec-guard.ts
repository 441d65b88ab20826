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
import { specProblemOf } from '@regatta/kube';
import type { UnitedDeployment } from '@regatta/api';
import { defaultUnitedDeploymentForAdmission } from './webhooks/defaults.js';
import { validateUnitedDeployment } from './webhooks/validation.js';

export { INVALID_SPEC_REASON } from '@regatta/kube';

/** A user-facing reason not to act on the UnitedDeployment, or undefined when it passes the admission rules. */
export function specProblem(ud: UnitedDeployment): string | undefined {
  return specProblemOf('UnitedDeployment', () => {
    // as the validating webhook sees it: after the mutating one (shorthands converted, defaults added)
    const { object } = defaultUnitedDeploymentForAdmission({ operation: 'CREATE', object: ud });
    return validateUnitedDeployment(object);
  });
}
