/**
 * The admission rules, checked again by the reconciler (as CloneSet's, docs/cloneset.md "Validation"): with the
 * webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on such a
 * ResourceDistribution is harmful (a resource of a kind not distributed, a namespace both included and excluded, a
 * system namespace among the targets: copies written where nobody asked for them). The reconciler does not act on a
 * ResourceDistribution that fails validation and says why instead (an `InvalidSpec` event;
 * docs/resourcedistribution.md "Validation").
 *
 * The pure rules only: the webhook's dry-run create of the resource (the API server's own rules for the Secret or
 * ConfigMap) stays the webhook's; a copy the API server refuses shows in the status conditions as before. The
 * validator never throws for any JSON (libs/api's tests); should it still throw, the error is the problem reported.
 */
import {
  defaultResourceDistributionForAdmission,
  resourceDistributionVersionOf,
  selectorFieldOf,
  validateResourceDistribution,
  type ResourceDistribution,
  type ResourceDistributionVersion,
} from '@regatta/api';
import { specProblemOf } from '@regatta/kube';

export { INVALID_SPEC_REASON } from '@regatta/kube';

/**
 * The version whose rules the stored object is judged by: its own, unless its targets carry only the other version's
 * selector field. An object created as v1alpha1 (`namespaceLabelSelector`) and read as v1beta1 keeps that field, and
 * the matching reads it (libs/api `namespaceSelectorOf`), so the guard must judge it too (docs/reliability.md finding 18).
 */
function judgedVersion(rd: ResourceDistribution): ResourceDistributionVersion {
  const own = resourceDistributionVersionOf(rd);
  const other: ResourceDistributionVersion = own === 'v1alpha1' ? 'v1beta1' : 'v1alpha1';
  const targets = rd.spec?.targets as Record<string, unknown> | undefined;
  return targets?.[selectorFieldOf(own)] === undefined && targets?.[selectorFieldOf(other)] !== undefined ? other : own;
}

/** A user-facing reason not to act on the ResourceDistribution, or undefined when it passes the admission rules. */
export function specProblem(rd: ResourceDistribution): string | undefined {
  return specProblemOf('ResourceDistribution', () => {
    const version = judgedVersion(rd);
    return validateResourceDistribution(defaultResourceDistributionForAdmission(rd, version), version);
  });
}
