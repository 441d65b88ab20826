/**
 * The objects this process last wrote, for a reconcile that runs before the cache shows those writes.
 *
 * A controller reads from the bus cache, which trails the API server by an event. When a reconcile starts before
 * the cache has the controller's own last write, it would act on the older object: write a status condition again
 * with a new `lastTransitionTime` (the workload status step, libs/workload), or wait for the echo of a NodeImage it
 * just tagged before giving the next node the tag (the ImagePullJob controller, libs/imagepull). Kubernetes'
 * controllers have the same gap and accept a conflict or wait; here the answer of each write is kept until the cache
 * shows that resourceVersion or a newer one, and a reconcile reads the newer of the two.
 */
import type { KubeObject } from './meta.js';

/** True when resourceVersion `a` is known to be newer than `b` (etcd revisions are integers; anything else is never newer). */
export function resourceVersionNewer(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) > BigInt(b);
}

const keyOf = (namespace: string | undefined, name: string | undefined) => `${namespace ?? ''}/${name ?? ''}`;

export class OwnWrites {
  readonly #latest = new Map<string, KubeObject>();

  /** Keeps the object a write returned (the API server's answer), unless a newer answer is kept already. */
  record(written: KubeObject): void {
    const key = keyOf(written.metadata?.namespace, written.metadata?.name);
    const kept = this.#latest.get(key);
    if (kept && resourceVersionNewer(kept.metadata?.resourceVersion, written.metadata?.resourceVersion)) return;
    this.#latest.set(key, written);
  }

  /**
   * `cached`, or the object this process wrote last when that write is newer than `cached` (same uid), whole: its
   * spec and generation belong with its status. Once the cache has caught up (or the object was replaced: another
   * uid) the kept write is dropped, so only objects with a write in flight hold memory.
   */
  view<T extends KubeObject>(cached: T): T {
    const key = keyOf(cached.metadata?.namespace, cached.metadata?.name);
    const kept = this.#latest.get(key);
    if (kept === undefined) return cached;
    if (
      kept.metadata?.uid === cached.metadata?.uid &&
      resourceVersionNewer(kept.metadata?.resourceVersion, cached.metadata?.resourceVersion)
    )
      return kept as T;
    this.#latest.delete(key);
    return cached;
  }

  /** Drops what is kept for an object that is gone. */
  forget(namespace: string | undefined, name: string): void {
    this.#latest.delete(keyOf(namespace, name));
  }

  /** Writes kept (tests). */
  get size(): number {
    return this.#latest.size;
  }
}
