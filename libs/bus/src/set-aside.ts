import { EnvelopeError } from './errors.js';

/**
 * Why a bucket entry was set aside instead of applied (docs/adr/0068-a-bad-bus-entry-is-set-aside.md):
 * - `envelope`: the value is not a Regatta envelope (not JSON, an unknown version: a corrupt store, another
 *   writer, a newer watcher's format);
 * - `shape`: the envelope decodes but the object inside cannot be kept, projected or indexed (a field of the wrong
 *   type where the program's code expects another).
 */
export type SetAsideReason = 'envelope' | 'shape';

/** One entry set aside, as reported (once per key and revision) to a cache's `onSetAside`. */
export interface SetAsideEntry {
  bucket: string;
  key: string;
  /** The bucket revision (stream sequence) of the value that was set aside. */
  revision: number;
  reason: SetAsideReason;
  error: unknown;
}

export function setAsideReason(err: unknown): SetAsideReason {
  return err instanceof EnvelopeError ? 'envelope' : 'shape';
}

/**
 * The keys of a bucket whose newest value could not be applied, with that value's revision. A cache keeps the
 * last good object of such a key (stale rather than absent: an absent pod would make a controller create a
 * replacement) and reports each bad value once, however often a re-watch reads it again.
 */
export class SetAsideKeys {
  private readonly revisions = new Map<string, number>();

  /** Records `key` at `revision`; true when this value was not set aside before (report it). */
  add(key: string, revision: number): boolean {
    if (this.revisions.get(key) === revision) return false;
    this.revisions.set(key, revision);
    return true;
  }

  /**
   * Sets aside `key`'s value at `revision` of `bucket`, which failed with `error`, and tells `report` the first time
   * (see {@link add}).
   */
  setAside(
    entry: { bucket: string; key: string; revision: number },
    error: unknown,
    report: ((entry: SetAsideEntry) => void) | undefined,
  ): void {
    if (this.add(entry.key, entry.revision)) report?.({ ...entry, reason: setAsideReason(error), error });
  }

  /** The key got a good value or was deleted. */
  clear(key: string): void {
    this.revisions.delete(key);
  }

  /** A copy: a caller may clear keys while iterating. */
  keys(): string[] {
    return [...this.revisions.keys()];
  }

  has(key: string): boolean {
    return this.revisions.has(key);
  }

  get size(): number {
    return this.revisions.size;
  }
}
