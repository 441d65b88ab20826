/**
 * The admission rules, checked again by the upgrade reconciler (as CloneSet's, docs/cloneset.md "Validation"): with
 * the webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on such a SidecarSet
 * is harmful (an unparsable maxUnavailable or partition, sidecars of one name, an unknown update type: pods upgraded
 * in place by rules nobody wrote). The reconciler does not act on a SidecarSet that fails validation and says why
 * instead (an `InvalidSpec` event; docs/sidecarset.md "Validation").
 *
 * Only the SidecarSet's own rules: those that need the cluster (overlap with other SidecarSets, the revision named by
 * `injectionStrategy.revision`, the pod-metadata whitelist ConfigMap) stay the webhook's. The validator never throws
 * for any JSON (libs/api's fuzz tests); should it still throw, the error is the problem reported.
 */
import { defaultSidecarSetForAdmission, validateSidecarSet, type SidecarSet } from '@regatta/api';
import { specProblemOf } from '@regatta/kube';

export { INVALID_SPEC_REASON } from '@regatta/kube';

/** A user-facing reason not to act on the SidecarSet, or undefined when it passes the admission rules. */
export function specProblem(set: SidecarSet): string | undefined {
  return specProblemOf('SidecarSet', () => {
    const version = set.apiVersion === 'apps.kruise.io/v1beta1' ? 'v1beta1' : 'v1alpha1';
    // as the validating webhook sees it: after the mutating one
    const { object } = defaultSidecarSetForAdmission(set, version);
    return validateSidecarSet(object, { version, patchPodMetadataDefaultsAllowed: true });
  });
}
