/**
 * The per-node back-off before a failed daemon pod is deleted again (Kubernetes `pkg/controller/daemon`
 * `failedPodsBackoff`: 1 s doubling to 15 min, keyed `<ds uid>/<generation>/<node>`), so a pod that fails at once
 * is not recreated in a hot loop. Process-local, as upstream's; keys start with the DaemonSet's `namespace/name`.
 */
export const FAILED_POD_BACKOFF_INITIAL_MS = 1_000;
export const FAILED_POD_BACKOFF_MAX_MS = 15 * 60_000;

export class FailedPodBackoff {
  readonly #entries = new Map<string, { delayMs: number; lastUpdate: number }>();

  constructor(
    private readonly initialMs = FAILED_POD_BACKOFF_INITIAL_MS,
    private readonly maxMs = FAILED_POD_BACKOFF_MAX_MS,
  ) {}

  static key(dsKey: string, dsUid: string, generation: number, node: string): string {
    return `${dsKey}/${dsUid}/${generation}/${node}`;
  }

  /** The time left (ms) while the last deletion on this key is less than its delay ago; 0 when free to go. */
  remaining(key: string, now: Date): number {
    const e = this.#entries.get(key);
    if (!e) return 0;
    return Math.max(e.lastUpdate + e.delayMs - now.getTime(), 0);
  }

  /** Records a deletion: the delay doubles (up to the max); an entry idle for twice the max starts over. */
  next(key: string, now: Date): void {
    const t = now.getTime();
    const e = this.#entries.get(key);
    const delayMs =
      !e || t - e.lastUpdate > 2 * this.maxMs ? this.initialMs : Math.min(e.delayMs * 2, this.maxMs);
    this.#entries.set(key, { delayMs, lastUpdate: t });
  }

  /** Drops a DaemonSet's entries (it is gone). */
  forget(dsKey: string): void {
    for (const k of this.#entries.keys()) if (k.startsWith(`${dsKey}/`)) this.#entries.delete(k);
  }
}
