/**
 * The admission rules, checked again by the reconciler (as CloneSet's, docs/cloneset.md "Validation"): with the
 * webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on such a DaemonSet is
 * harmful or silently stuck (an empty selector adopts every orphan pod; a selector the template does not match
 * makes every created pod be released and replaced). The reconciler does not act on a DaemonSet that fails
 * validation and says why (an `InvalidSpec` event; docs/ads.md "Validation").
 */
import { defaultDaemonSet, validateDaemonSet } from '@regatta/api';
import { specProblemOf } from '@regatta/kube';
import type { DaemonSetObject } from './daemonset-object.js';

/** A user-facing reason not to act on the DaemonSet, or undefined when it passes the admission rules. */
export function specProblem(ds: DaemonSetObject): string | undefined {
  return specProblemOf('DaemonSet', () =>
    validateDaemonSet(defaultDaemonSet(ds, 'v1beta1'), { version: 'v1beta1' }),
  );
}
