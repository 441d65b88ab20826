/**
 * The admission rules, checked again by the reconciler (as CloneSet does, docs/cloneset.md "Validation"): with the
 * webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on an invalid set is
 * harmful (an empty selector adopts the namespace's orphans) or silently stuck. The reconciler does not act on a set
 * that fails validation and says why instead (an `InvalidSpec` event).
 */
import { type StatefulSet, defaultStatefulSet, validateStatefulSet } from '@regatta/api';
import { formatFieldError } from '@regatta/kube';

/** A user-facing reason not to act on the set, or undefined when it passes the admission rules. */
export function specProblem(set: StatefulSet): string | undefined {
  let errors;
  try {
    errors = validateStatefulSet(defaultStatefulSet(set));
  } catch (err) {
    return `the StatefulSet could not be validated (${err instanceof Error ? err.message : String(err)}); check its spec against the schema`;
  }
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, 3).map(formatFieldError).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

/** Remembers the verdict per set generation, so a reconcile does not validate the pod template again. */
export class SpecGuard {
  readonly #verdicts = new Map<string, { uid: string; generation: number; problem: string | undefined }>();

  problem(key: string, set: StatefulSet): string | undefined {
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
