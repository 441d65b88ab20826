/**
 * The admission rules, checked again by the reconciler (as CloneSet's, docs/cloneset.md "Validation"): with the
 * webhooks off or bypassed the API server stores whatever the CRD schema allows, and acting on such a DaemonSet is
 * harmful or silently stuck (an empty selector adopts every orphan pod; a selector the template does not match
 * makes every created pod be released and replaced). The reconciler does not act on a DaemonSet that fails
 * validation and says why (an `InvalidSpec` event; docs/ads.md "Validation").
 */
import { defaultDaemonSet, validateDaemonSet } from '@regatta/api';
import { formatFieldError } from '@regatta/kube';
import type { DaemonSetObject } from './daemonset-object.js';

/** A user-facing reason not to act on the DaemonSet, or undefined when it passes the admission rules. */
export function specProblem(ds: DaemonSetObject): string | undefined {
  let errors;
  try {
    errors = validateDaemonSet(defaultDaemonSet(ds, 'v1beta1'), { version: 'v1beta1' });
  } catch (err) {
    return `the DaemonSet could not be validated (${err instanceof Error ? err.message : String(err)}); check its spec against the DaemonSet schema`;
  }
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, 3).map(formatFieldError).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

/** Remembers the verdict per DaemonSet generation. */
export class SpecGuard {
  readonly #verdicts = new Map<string, { uid: string; generation: number; problem: string | undefined }>();

  problem(key: string, ds: DaemonSetObject): string | undefined {
    const uid = ds.metadata?.uid ?? '';
    const generation = ds.metadata?.generation ?? 0;
    const known = this.#verdicts.get(key);
    if (known && known.uid === uid && known.generation === generation) return known.problem;
    const problem = specProblem(ds);
    this.#verdicts.set(key, { uid, generation, problem });
    return problem;
  }

  forget(key: string): void {
    this.#verdicts.delete(key);
  }
}
