import type { Registry } from 'prom-client';
import { systemClock, type Clock } from '../clock.js';
import { DelayHeap } from './delay-heap.js';
import { Fifo } from './fifo.js';
import { noQueueMetrics, workqueueMetrics, type QueueMetrics } from './metrics.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';

/** The longest delay one Node.js timer can hold. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface WorkQueueOptions {
  /** Names the queue in metrics (`name` and `controller` labels). */
  name: string;
  /** Decides `addRateLimited` delays; defaults to client-go's default controller rate limiter. */
  rateLimiter?: RateLimiter;
  /** Where the workqueue metrics are registered; none when omitted. */
  registry?: Registry;
  /** Must advance together with timers (real time, or vitest's fake timers). */
  clock?: Clock;
}

/**
 * Where an added key waits: `high` keys are handed out first, `low` keys only when nothing else waits; each level is
 * first in, first out (docs/adr/0066, 0067).
 */
export type Priority = 'high' | 'normal' | 'low';
const RANK: Record<Priority, number> = { high: 2, normal: 1, low: 0 };
const LEVELS: readonly Priority[] = ['high', 'normal', 'low'];

/** What `get` resolves to: a key to process, or the news that the queue shut down. */
export type QueueItem = { shutdown: false; key: string } | { shutdown: true };

const SHUTDOWN: QueueItem = Object.freeze({ shutdown: true });

/**
 * A de-duplicating, delaying, rate-limited queue of string keys — client-go's workqueue
 * (`Typed` + delaying + rate-limiting) in one class.
 *
 * - A key is queued at most once (the dirty set), and never handed to two workers at once (the
 *   processing set): a key added while it is processed is handed out again after `done`.
 * - `addAfter` holds keys until their time; a key waiting twice keeps the earlier time.
 * - After `shutDown`, adds are ignored and `get` reports `shutdown` — queued keys are dropped
 *   rather than handed out (unlike client-go, which hands out what is queued): controllers are
 *   level-based, so a restarted or newly elected process re-lists and re-queues everything.
 *   Workers already holding a key finish it; `shutDownWithDrain` waits for them.
 */
export class WorkQueue {
  readonly name: string;
  readonly #clock: Clock;
  readonly #limiter: RateLimiter;
  readonly #metrics: QueueMetrics;
  /** One line per priority; an entry goes stale when its key moves up or is handed out (see `#shift`). */
  readonly #lines: Record<Priority, Fifo> = { high: new Fifo(), normal: new Fifo(), low: new Fifo() };
  /** The dirty keys (queued, or added again while processed), each with the priority of its pending add. */
  readonly #dirty = new Map<string, Priority>();
  /** key → when a worker took it */
  readonly #processing = new Map<string, number>();
  /** key → when it was added (for queue_duration) */
  readonly #addedAt = new Map<string, number>();
  readonly #waiting = new DelayHeap();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #getters: ((item: QueueItem) => void)[] = [];
  #drainers: (() => void)[] = [];
  #shuttingDown = false;

  constructor(options: WorkQueueOptions) {
    this.name = options.name;
    this.#clock = options.clock ?? systemClock;
    this.#limiter = options.rateLimiter ?? defaultControllerRateLimiter(this.#clock);
    this.#metrics = options.registry
      ? workqueueMetrics(options.registry, {
          name: this.name,
          depth: () => this.#dirty.size,
          lowPriorityDepth: () => this.#count((_, priority) => priority === 'low'),
          unfinishedWorkSeconds: () => this.#unfinished().sum,
          longestRunningProcessorSeconds: () => this.#unfinished().max,
        })
      : noQueueMetrics;
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Keys waiting to be handed out (not counting delayed ones or those being processed). */
  len(): number {
    return this.#count((key) => !this.#processing.has(key));
  }

  /**
   * Queues `key` unless it is already queued; ignored after shutdown. With `priority` `low` it waits until no other
   * key does (controller-runtime's priority queue gives the objects of the initial list low priority: after a
   * restart, a change made now is not served after thousands of unchanged objects); with `high`, it goes before
   * every `normal` and `low` key (an object being deleted, whose finalizer holds a user's delete: docs/adr/0067).
   * A queued key added again at a higher priority moves up; at a lower one, it stays where it is.
   */
  add(key: string, options: { priority?: Priority } = {}): void {
    if (this.#shuttingDown) return;
    const priority = options.priority ?? 'normal';
    const queued = this.#dirty.get(key);
    if (queued !== undefined) {
      if (RANK[priority] <= RANK[queued]) return;
      // moved up: its entry in the lower line goes stale
      this.#dirty.set(key, priority);
      if (!this.#processing.has(key)) this.#enqueue(key);
      return;
    }
    this.#metrics.added();
    this.#dirty.set(key, priority);
    if (!this.#addedAt.has(key)) this.#addedAt.set(key, this.#clock());
    if (this.#processing.has(key)) return; // handed out again by `done`
    this.#enqueue(key);
  }

  /** Queues `key` after `ms` (immediately if `ms <= 0`); of two pending delays the earlier wins. */
  addAfter(key: string, ms: number): void {
    if (this.#shuttingDown) return;
    this.#metrics.retried();
    if (!(ms > 0)) {
      this.add(key);
      return;
    }
    if (this.#waiting.push(key, this.#clock() + ms)) this.#arm();
  }

  /** Queues `key` after the rate limiter's delay for it (a retry with back-off). */
  addRateLimited(key: string): void {
    this.addAfter(key, this.#limiter.when(key));
  }

  /** Clears `key`'s back-off history (call it when `key` was processed successfully). */
  forget(key: string): void {
    this.#limiter.forget(key);
  }

  /** How many rate-limited retries `key` has had since it was last forgotten. */
  numRequeues(key: string): number {
    return this.#limiter.numRequeues(key);
  }

  /**
   * The next key to process, waiting until there is one; `{ shutdown: true }` once the queue
   * shuts down. Every key received must be passed to `done` when its processing ends.
   */
  get(): Promise<QueueItem> {
    if (this.#shuttingDown) return Promise.resolve(SHUTDOWN);
    const key = this.#shift('high') ?? this.#shift('normal') ?? this.#shift('low');
    if (key !== undefined) return Promise.resolve(this.#handOut(key));
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Marks the end of processing `key`; if it was added meanwhile, it is queued again. */
  done(key: string): void {
    const started = this.#processing.get(key);
    if (started === undefined) return;
    this.#processing.delete(key);
    this.#metrics.worked((this.#clock() - started) / 1000);
    if (this.#dirty.has(key) && !this.#shuttingDown) this.#enqueue(key);
    if (this.#processing.size === 0) this.#releaseDrainers();
  }

  /** Stops the queue: ignores new adds, drops queued and delayed keys, wakes all waiting `get`s. */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting.clear();
    for (const level of LEVELS) this.#lines[level].drain();
    this.#dirty.clear();
    this.#addedAt.clear();
    const getters = this.#getters;
    this.#getters = [];
    for (const resolve of getters) resolve(SHUTDOWN);
    this.#metrics.close();
    if (this.#processing.size === 0) this.#releaseDrainers();
  }

  /** `shutDown`, then resolves once every key handed out has been passed to `done`. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainers.push(resolve));
  }

  #enqueue(key: string): void {
    const getter = this.#getters.shift();
    if (getter) getter(this.#handOut(key));
    else this.#lines[this.#dirty.get(key) ?? 'normal'].push(key);
  }

  /** The first key of the `level` line still queued there: not moved up or handed out since its entry was made. */
  #shift(level: Priority): string | undefined {
    const line = this.#lines[level];
    for (let key = line.shift(); key !== undefined; key = line.shift())
      if (this.#dirty.get(key) === level && !this.#processing.has(key)) return key;
    return undefined;
  }

  #count(keep: (key: string, priority: Priority) => boolean): number {
    let n = 0;
    for (const [key, priority] of this.#dirty) if (keep(key, priority)) n++;
    return n;
  }

  #handOut(key: string): QueueItem {
    const now = this.#clock();
    this.#dirty.delete(key);
    this.#processing.set(key, now);
    const added = this.#addedAt.get(key);
    this.#addedAt.delete(key);
    if (added !== undefined) this.#metrics.queued((now - added) / 1000);
    return { shutdown: false, key };
  }

  #releaseDrainers(): void {
    const drainers = this.#drainers;
    this.#drainers = [];
    for (const resolve of drainers) resolve();
  }

  /**
   * Keeps one timer, set for the earliest delayed key. Node cannot wait longer than 2^31−1 ms in one timer (a longer
   * one fires after 1 ms, with a warning): a later key gets a capped timer that re-arms when it fires.
   */
  #arm(): void {
    const next = this.#waiting.peekTime();
    if (next === undefined) return;
    const wake = Math.min(next, this.#clock() + MAX_TIMER_MS);
    if (this.#timer !== undefined && this.#timerAt <= wake) return;
    clearTimeout(this.#timer);
    this.#timerAt = wake;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, wake - this.#clock()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    for (const key of this.#waiting.popReady(this.#clock())) this.add(key);
    this.#arm();
  }

  #unfinished(): { sum: number; max: number } {
    const now = this.#clock();
    let sum = 0;
    let max = 0;
    for (const started of this.#processing.values()) {
      const s = (now - started) / 1000;
      sum += s;
      max = Math.max(max, s);
    }
    return { sum, max };
  }
}
