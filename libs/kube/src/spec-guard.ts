/**
 * The admission rules, checked again by a reconciler (docs/cloneset.md "Validation"; docs/reliability-checks.md, R2 with the
 * webhooks removed). With the webhooks off or bypassed the API server stores whatever the CRD schema allows, and
 * acting on such an object is harmful or silently stuck; the controller does not act on it and says why instead
 * (an `InvalidSpec` Warning event). Each kind's library gives its own check, built with {@link specProblemOf}.
 */
import type { EventRecorder } from './events.js';
import { type FieldError, formatFieldError } from './field-errors.js';
import type { KubeObject } from './meta.js';

/** The reason of the Warning event an object that fails validation gets. */
export const INVALID_SPEC_REASON = 'InvalidSpec';

/**
 * A user-facing reason not to act on a `kind` object: its first three field errors (and how many more), or what the
 * validation threw (a validator should never throw; if one does, that is the problem reported, so a bad object is
 * never retried hot). Undefined when `validate` finds nothing.
 */
export function specProblemOf(kind: string, validate: () => readonly FieldError[]): string | undefined {
  let errors;
  try {
    errors = validate();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return `the ${kind} could not be validated (${why}); check its spec against the ${kind} schema`;
  }
  if (errors.length === 0) return undefined;
  const shown = errors.slice(0, 3).map(formatFieldError).join('; ');
  return errors.length > 3 ? `${shown}; and ${errors.length - 3} more` : shown;
}

/**
 * A reconciler's answer to a `kind` object that fails validation (`problem`, from {@link SpecGuard}): a log line and a
 * Warning `InvalidSpec` event saying what to fix, and the empty result, as nothing is worth retrying until the object
 * changes.
 */
export function refuseInvalidSpec(
  obj: KubeObject,
  kind: string,
  problem: string,
  recorder: Pick<EventRecorder, 'warning'> | undefined,
  log: { warn(fields: object, msg: string): void },
): Record<string, never> {
  // the reconcile's logger already names the object
  log.warn({ problem }, `not reconciling this ${kind}: it fails validation`);
  void recorder?.warning(
    obj,
    INVALID_SPEC_REASON,
    `not acting on this ${kind} until it is fixed: ${problem}`,
  );
  return {};
}

/** Remembers the verdict of `check` per object generation (its uid and generation under a key). */
export class SpecGuard<T extends KubeObject> {
  readonly #verdicts = new Map<string, { uid: string; generation: number; problem: string | undefined }>();

  constructor(private readonly check: (obj: T) => string | undefined) {}

  /** The problem of the object reconciled under `key` (namespace/name), checked again only when it changed. */
  problem(key: string, obj: T): string | undefined {
    const uid = obj.metadata?.uid ?? '';
    const generation = obj.metadata?.generation ?? 0;
    const known = this.#verdicts.get(key);
    if (known && known.uid === uid && known.generation === generation) return known.problem;
    const problem = this.check(obj);
    this.#verdicts.set(key, { uid, generation, problem });
    return problem;
  }

  /** The object is gone. */
  forget(key: string): void {
    this.#verdicts.delete(key);
  }

  /** How many verdicts are remembered. */
  get size(): number {
    return this.#verdicts.size;
  }

  /**
   * Forgets every key not in `live`: for a caller that sees the whole current list (a webhook reading its cache)
   * rather than each deletion.
   */
  retainOnly(live: ReadonlySet<string>): void {
    for (const key of this.#verdicts.keys()) if (!live.has(key)) this.#verdicts.delete(key);
  }
}
