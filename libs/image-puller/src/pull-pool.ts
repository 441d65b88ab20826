// The node's bound on concurrent pulls (`--max-workers-for-pull-image`, `imagepuller_worker_pool.go`'s ChanPool): at
// most `size` tasks run at once, the others wait in submission order; `size` ≤ 0 runs every task at once.

export type PoolTask = () => Promise<void>;

export class PullPool {
  private running = 0;
  private readonly waiting: PoolTask[] = [];
  private stopped = false;

  constructor(readonly size: number) {}

  /** Runs `task` now or once a slot frees; tasks submitted after `stop` never run. */
  submit(task: PoolTask): void {
    if (this.stopped) return;
    if (this.size <= 0 || this.running < this.size) this.run(task);
    else this.waiting.push(task);
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Drops the waiting tasks; running ones finish on their own. */
  stop(): void {
    this.stopped = true;
    this.waiting.length = 0;
  }

  private run(task: PoolTask): void {
    this.running += 1;
    void task()
      .catch(() => undefined) // a task reports its own failures; the slot is freed either way
      .finally(() => {
        this.running -= 1;
        const next = this.stopped ? undefined : this.waiting.shift();
        if (next) this.run(next);
      });
  }
}
