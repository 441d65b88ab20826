// A node agent duty's syncs, one key (a pod) at a time: a sync scheduled after a delay (a newer schedule replaces
// the older), never two of one key at once (a schedule during a sync runs it again after), requeued when the sync
// asks, retried after a failure. The container-meta and container-recreate duties use it.

export interface KeyedSyncsOptions {
  /** One look at a key; resolves with when to look again (undefined: at its next schedule). */
  sync: (key: string) => Promise<number | undefined>;
  /** A sync that threw: told, then the key is tried again `retryMs` later. */
  onError: (err: unknown, key: string) => void;
  retryMs: number;
}

export class KeyedSyncs {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopped = false;

  constructor(private readonly o: KeyedSyncsOptions) {}

  /** Runs the key's sync `delayMs` from now (replacing one already scheduled); nothing once stopped. */
  schedule(key: string, delayMs: number): void {
    if (this.stopped) return;
    const old = this.timers.get(key);
    if (old) clearTimeout(old);
    const t = setTimeout(
      () => {
        this.timers.delete(key);
        this.run(key);
      },
      Math.max(0, delayMs),
    );
    t.unref();
    this.timers.set(key, t);
  }

  /** No more syncs; resolves once those running have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private run(key: string): void {
    if (this.running.has(key)) {
      this.again.add(key);
      return;
    }
    const p = this.o
      .sync(key)
      .then((requeueMs) => {
        if (requeueMs !== undefined) this.schedule(key, requeueMs);
      })
      .catch((err: unknown) => {
        this.o.onError(err, key);
        this.schedule(key, this.o.retryMs);
      })
      .finally(() => {
        this.running.delete(key);
        if (this.again.delete(key)) this.schedule(key, 0);
      });
    this.running.set(key, p);
  }
}
