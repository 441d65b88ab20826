/**
 * The admission rules, checked again by the reconciler (as CloneSet does, docs/cloneset.md "Validation"): with the
 * webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on an invalid set is
 * harmful (an empty selector adopts the namespace's orphans) or silently stuck. The reconciler does not act on a set
 * that fails validation and says why instead (an `InvalidSpec` event).
 */
import { type StatefulSet, defaultStatefulSet, validateStatefulSet } from '@regatta/api';
import { specProblemOf } from '@regatta/kube';

/**
 * The most pods one set may ask for before the reconciler refuses it: Kubernetes' documented limit for a whole
 * cluster (150 000 pods, "Considerations for large clusters"). The schema and OpenKruise's admission accept any int32;
 * a set of 2147483647 replicas made the reconciler build one ordinal per replica, block for tens of seconds and crash
 * (docs/reliability-checks.md, R2).
 */
export const MAX_REPLICAS = 150_000;

/** A user-facing reason not to act on the set, or undefined when it passes the admission rules. */
export function specProblem(set: StatefulSet): string | undefined {
  const replicas = set.spec?.replicas ?? 1;
  if (replicas > MAX_REPLICAS)
    return `spec.replicas: ${replicas} is more than the ${MAX_REPLICAS} pods a Kubernetes cluster supports; lower it`;
  return specProblemOf('StatefulSet', () => validateStatefulSet(defaultStatefulSet(set)));
}
