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
import { formatFieldError } from '@regatta/kube';

/** The reason of the Warning event a SidecarSet that fails validation gets. */
export const INVALID_SPEC_REASON = 'InvalidSpec';

/** A user-facing reason not to act on the SidecarSet, or undefined when it passes the admission rules. */
export function specProblem(set: SidecarSet): string | undefined {
  let errors;
  try {
    const version = set.apiVersion === 'apps.kruise.io/v1beta1' ? 'v1beta1' : 'v1alpha1';
    // as the validating webhook sees it: after the mutating one
    const { object } = defaultSidecarSetForAdmission(set, version);
    errors = validateSidecarSet(object, { version, patchPodMetadataDefaultsAllowed: true });
  } catch (err) {
    return `the SidecarSet could not be validated (${err instanceof Error ? err.message : String(err)}); check its spec against the SidecarSet schema`;
  }
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, 3).map(formatFieldError).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

/** Remembers the verdict per SidecarSet generation. */
export class SpecGuard {
  readonly #verdicts = new Map<string, { uid: string; generation: number; problem: string | undefined }>();

  problem(key: string, set: SidecarSet): string | undefined {
    const uid = set.metadata?.uid ?? '';
    const generation = set.metadata?.generation ?? 0;
    const known = this.#verdicts.get(key);
    if (known && known.uid === uid && known.generation === generation) return known.problem;
    const problem = specProblem(set);
    this.#verdicts.set(key, { uid, generation, problem });
    return problem;
  }

  forget(key: string): void {
    this.#verdicts.delete(key);
  }
}
