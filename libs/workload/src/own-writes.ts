/**
 * The workload as this process last wrote it, for a reconcile that runs before the cache shows that write.
 *
 * A controller reads its workload from the bus cache, which trails the API server by an event. When the status
 * step writes a condition and the next reconcile starts before the cache has the write, the step would see the
 * condition missing and write it again with a new `lastTransitionTime`. Kubernetes' controllers have the same gap
 * and accept a conflict; Regatta writes status with merge patches (no conflict), so it bridges the gap here: the
 * response of each write is kept until the cache shows that resourceVersion or a newer one.
 */
import type { KubeObject } from '@regatta/kube';

/** True when resourceVersion `a` is known to be newer than `b` (etcd revisions are integers; anything else is never newer). */
export function resourceVersionNewer(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return false;
  return BigInt(a) > BigInt(b);
}

function keyOf(obj: KubeObject): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

export class OwnWrites {
  readonly #latest = new Map<string, KubeObject>();

  /** Keeps the object a write returned (the API server's answer). */
  record(written: KubeObject): void {
    this.#latest.set(keyOf(written), written);
  }

  /**
   * `cached`, or the object this process wrote last when that write is newer than `cached` (same uid). Once the
   * cache has caught up the kept write is dropped, so only workloads with a write in flight hold memory.
   */
  view<T extends KubeObject>(cached: T): T {
    const key = keyOf(cached);
    const written = this.#latest.get(key);
    if (written === undefined) return cached;
    if (
      written.metadata?.uid === cached.metadata?.uid &&
      resourceVersionNewer(written.metadata?.resourceVersion, cached.metadata?.resourceVersion)
    )
      return written as T; // whole: its spec and generation belong with its status
    this.#latest.delete(key);
    return cached;
  }

  /** Drops what is kept for a workload that is gone. */
  forget(namespace: string | undefined, name: string): void {
    this.#latest.delete(`${namespace ?? ''}/${name}`);
  }
}
