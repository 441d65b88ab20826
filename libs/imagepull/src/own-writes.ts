/**
 * What the ImagePullJob controller wrote last, for a reconcile that runs before the bus cache shows the write
 * (docs/imagepull.md "What a job does", docs/benchmarks.md §9).
 *
 * The controller reads jobs and NodeImages from the bus cache, which trails the API server by one event. It used to
 * wait for the cache to show its own writes (the tag written into a NodeImage, the job's status) before the next
 * reconcile of the job: a node's pull ending right after a round was written waited for those echoes before the
 * next node got the tag. Instead each write's answer is kept, and a reconcile reads the newer of the cached object
 * and that answer. A NodeImage the job just wrote still counts as active (the parallelism holds), and a status
 * just written is not written again. An answer is dropped once the cache shows its resourceVersion or a newer one.
 */
import type { KubeObject } from '@regatta/kube';

/** True when resourceVersion `a` is newer than `b` (etcd revisions are integers; anything else is never newer). */
export function resourceVersionNewer(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) > BigInt(b);
}

const keyOf = (namespace: string | undefined, name: string | undefined) => `${namespace ?? ''}/${name ?? ''}`;

export class WrittenObjects {
  readonly #latest = new Map<string, KubeObject>();

  /** Keeps the object a write returned (the API server's answer), unless a newer answer is kept already. */
  record(written: KubeObject): void {
    const key = keyOf(written.metadata?.namespace, written.metadata?.name);
    const kept = this.#latest.get(key);
    if (kept && resourceVersionNewer(kept.metadata?.resourceVersion, written.metadata?.resourceVersion)) return;
    this.#latest.set(key, written);
  }

  /**
   * `cached`, or the answer kept for it when that is newer (same uid). A kept answer the cache has caught up with,
   * or one of an object since replaced (another uid), is dropped.
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

  /** Answers kept (tests). */
  get size(): number {
    return this.#latest.size;
  }
}
