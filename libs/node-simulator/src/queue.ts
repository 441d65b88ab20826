// A keyed work queue: a key is processed by at most one worker at a time, a key added while it is being
// processed is processed again afterwards, failures are retried with a per-key exponential back-off.

export class KeyedQueue {
  private readonly pending: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly worker: (key: string) => Promise<void>,
    private readonly concurrency: number,
    private readonly onError: (key: string, err: unknown, attempt: number) => void,
    private readonly maxBackoffMs = 5_000,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    if (this.running.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.pending.push(key);
    this.pump();
  }

  get size(): number {
    return this.pending.length + this.running.size;
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency) {
      const key = this.pending.shift();
      if (key === undefined) return;
      this.queued.delete(key);
      this.running.add(key);
      this.worker(key)
        .then(
          () => this.failures.delete(key),
          (err: unknown) => {
            const n = (this.failures.get(key) ?? 0) + 1;
            this.failures.set(key, n);
            this.onError(key, err, n);
            const delay = Math.min(this.maxBackoffMs, 50 * 2 ** Math.min(n, 10));
            const t = setTimeout(() => {
              this.retryTimers.delete(key);
              this.add(key);
            }, delay);
            t.unref();
            this.retryTimers.get(key)?.close();
            this.retryTimers.set(key, t);
          },
        )
        .finally(() => {
          this.running.delete(key);
          if (this.dirty.delete(key)) this.add(key);
          this.pump();
          if (this.size === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }

  /** Resolves when nothing is queued or running (or after `timeoutMs`). */
  idle(timeoutMs: number): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, timeoutMs);
      t.unref();
      this.idleWaiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  async stop(timeoutMs = 3_000): Promise<void> {
    this.pending.length = 0;
    this.queued.clear();
    this.dirty.clear();
    for (const t of this.retryTimers.values()) clearTimeout(t);
    this.retryTimers.clear();
    this.stopped = true;
    if (this.running.size > 0) await this.idle(timeoutMs);
  }
}
