/**
 * ImagePullJobs the NodeImage controller has confirmed gone, by UID (docs/reliability.md finding 28). A tag's owner
 * missing from the cache is confirmed with the API server before the owner is dropped (the cache may not show a job
 * just created); a UID, once gone, never comes back, so each is confirmed once. Without it, a namespace of
 * thousands of jobs being deleted had every NodeImage reconcile, and each of its conflict retries, read every
 * owner already gone: tens of reads a second that slowed etcd and the namespace's deletion itself.
 */
export class GoneJobs {
  readonly #uids = new Set<string>();
  readonly #limit: number;

  /** `limit`: how many UIDs are kept, the oldest forgotten first (one forgotten is only confirmed again). */
  constructor(limit = 100_000) {
    this.#limit = limit;
  }

  has(uid: string | undefined): boolean {
    return uid !== undefined && this.#uids.has(uid);
  }

  add(uid: string | undefined): void {
    if (!uid) return;
    this.#uids.add(uid);
    for (const oldest of this.#uids) {
      if (this.#uids.size <= this.#limit) break;
      this.#uids.delete(oldest);
    }
  }
}
