// Per-key-ordered pipelining of the watcher's bucket writes (docs/adr/0052): many writes in flight, but the
// writes of one key (one object) run one after another in the order they were queued. Pure scheduling: it
// knows nothing of NATS, and a task's failure is the caller's to handle.

/**
 * How many writes a mirror may have queued or running at once. A JetStream put is one round trip (~0.2–1 ms on a
 * local server); 64 in flight covers the API server's event rate at saturation with room to spare, while bounding
 * what an event burst can hold in memory when the bus is slow: past it, the watch stream waits (backpressure).
 */
export const PUT_WINDOW = 64;

/** A task admitted into the window: `done` settles as the task does (a rejection is the task's own error). */
export interface Admitted {
  done: Promise<void>;
}

/**
 * Runs tasks with at most `window` of them outstanding (queued behind their key or running), and never two of one
 * key at once: a key's tasks start in the order they were admitted, each after the previous one settled (fulfilled
 * or rejected). Admission is first come, first served, so the order of admission is the order of calls.
 */
export class KeyedPipeline {
  /** key → the last task admitted for it (settled or not); removed once it settles with nothing behind it */
  private readonly tails = new Map<string, Promise<void>>();
  /** callers waiting for room, oldest first: admitted, in this order, as slots free up */
  private readonly waiting: { key: string; task: () => Promise<void>; admitted: (a: Admitted) => void }[] = [];
  private readonly idleWaiters: (() => void)[] = [];
  private outstanding = 0;
  private running = 0;
  private maxRunning = 0;

  constructor(readonly window: number = PUT_WINDOW) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError(`window must be a positive integer, got ${window}`);
  }

  /** Tasks admitted and not settled (queued behind their key or running). At most {@link window}. */
  get size(): number {
    return this.outstanding;
  }

  /** Tasks running now. */
  get inFlight(): number {
    return this.running;
  }

  /** The most tasks that ran at once so far. */
  get peakInFlight(): number {
    return this.maxRunning;
  }

  /** Callers waiting for room in the window. */
  get blocked(): number {
    return this.waiting.length;
  }

  /**
   * Waits for room in the window (backpressure), then queues `task` behind the earlier tasks of `key`. Resolves on
   * admission, with the task's own completion wrapped so that awaiting admission does not await the task.
   */
  submit(key: string, task: () => Promise<void>): Promise<Admitted> {
    if (this.outstanding >= this.window || this.waiting.length > 0) {
      // queued behind its key when a slot is handed over (see release), never behind a caller arriving later
      return new Promise((admitted) => this.waiting.push({ key, task, admitted }));
    }
    this.outstanding++;
    return Promise.resolve({ done: this.admit(key, task) });
  }

  /** Resolves once nothing is outstanding and nobody waits for admission. */
  idle(): Promise<void> {
    if (this.outstanding === 0 && this.waiting.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Queues an admitted task (its slot already counted in `outstanding`). */
  private admit(key: string, task: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const settled = () => undefined;
    const run = previous.then(async () => {
      this.running++;
      this.maxRunning = Math.max(this.maxRunning, this.running);
      try {
        await task();
      } finally {
        this.running--;
      }
    });
    const tail = run.then(settled, settled);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
      this.outstanding--;
      this.release();
    });
    return run;
  }

  private release(): void {
    // the slot freed goes to the oldest caller waiting: its task is queued behind its key now
    const next = this.outstanding < this.window ? this.waiting.shift() : undefined;
    if (next) {
      this.outstanding++;
      next.admitted({ done: this.admit(next.key, next.task) });
      return;
    }
    if (this.outstanding === 0 && this.waiting.length === 0) for (const w of this.idleWaiters.splice(0)) w();
  }
}
