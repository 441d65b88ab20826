/**
 * The admission rules, checked again by the reconciler. With the webhooks off or bypassed the API server stores
 * whatever the CRD schema allows, and acting on such a CloneSet is harmful or silently stuck: an empty selector
 * adopts every orphan pod of the namespace; a selector the template does not match makes every created pod be
 * released and replaced, without end; an unparsable maxUnavailable counts as 0 (OpenKruise's rule) and stalls the
 * rollout with no word; a template the CRD keeps whole may hold any JSON (`containers: {}`, `ports: [null]`); a
 * template label `apps.kruise.io/specified-delete` deletes every new pod. The reconciler does not act on a CloneSet
 * that fails validation and says why instead (an `InvalidSpec` event; see docs/cloneset.md, "Validation").
 *
 * The validators never throw for any JSON (libs/api's fuzz tests); should one still throw, the error is the
 * problem reported, so a bad object is never retried hot.
 */
import { type CloneSet, defaultCloneSet, validateCloneSet } from '@regatta/api';
import { specProblemOf } from '@regatta/kube';

/** A user-facing reason not to act on the CloneSet, or undefined when it passes the admission rules. */
export function specProblem(cs: CloneSet): string | undefined {
  // validated as the webhook would see it: defaulted first (what the mutating webhook adds is not a problem)
  return specProblemOf('CloneSet', () => validateCloneSet(defaultCloneSet(cs)));
}
