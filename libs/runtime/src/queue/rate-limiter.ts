import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';

/** Decides how long an item waits before it is retried (client-go `TypedRateLimiter`). */
export interface RateLimiter {
  /** The delay for the next retry of `item`; records the retry. */
  when(item: string): number;
  /** Stops tracking `item` (it succeeded, or it was given up on). */
  forget(item: string): void;
  /** How many times `item` has been retried since it was last forgotten. */
  numRequeues(item: string): number;
}

/**
 * Per-item exponential back-off: `base * 2^failures`, capped at `max`
 * (client-go `ItemExponentialFailureRateLimiter`; controller defaults 5 ms → 1000 s).
 */
export class ItemExponentialFailureRateLimiter implements RateLimiter {
  readonly #failures = new Map<string, number>();

  constructor(
    readonly baseDelayMs = 5,
    readonly maxDelayMs = 1_000_000,
  ) {}

  when(item: string): number {
    const failures = this.#failures.get(item) ?? 0;
    this.#failures.set(item, failures + 1);
    const delay = this.baseDelayMs * 2 ** failures;
    return Number.isFinite(delay) && delay < this.maxDelayMs ? delay : this.maxDelayMs;
  }

  forget(item: string): void {
    this.#failures.delete(item);
  }

  numRequeues(item: string): number {
    return this.#failures.get(item) ?? 0;
  }
}

/**
 * One token bucket for all items: `qps` tokens per second, at most `burst` saved up
 * (client-go `BucketRateLimiter` over `rate.Limiter.Reserve`: the token is always taken and
 * the delay says when it becomes valid, so tokens may go negative).
 */
export class BucketRateLimiter implements RateLimiter {
  #tokens: number;
  #last: number;

  constructor(
    readonly qps = 10,
    readonly burst = 100,
    private readonly clock: Clock = systemClock,
  ) {
    this.#tokens = burst;
    this.#last = clock();
  }

  when(_item: string): number {
    const now = this.clock();
    const elapsed = Math.max(0, now - this.#last);
    this.#last = now;
    this.#tokens = Math.min(this.burst, this.#tokens + (elapsed / 1000) * this.qps);
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.qps) * 1000;
  }

  forget(_item: string): void {
    // the bucket is shared by all items: nothing per item to forget
  }

  numRequeues(_item: string): number {
    return 0;
  }
}

/** The longest delay of several limiters (client-go `MaxOfRateLimiter`); every limiter records the retry. */
export class MaxOfRateLimiter implements RateLimiter {
  readonly #limiters: readonly RateLimiter[];

  constructor(...limiters: RateLimiter[]) {
    this.#limiters = limiters;
  }

  when(item: string): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: string): void {
    for (const l of this.#limiters) l.forget(item);
  }

  numRequeues(item: string): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/**
 * client-go's `DefaultControllerRateLimiter`: the larger of a per-item exponential back-off
 * (5 ms doubling to 1000 s) and an overall 10 qps bucket with a burst of 100.
 */
export function defaultControllerRateLimiter(clock: Clock = systemClock): RateLimiter {
  return new MaxOfRateLimiter(
    new ItemExponentialFailureRateLimiter(5, 1_000_000),
    new BucketRateLimiter(10, 100, clock),
  );
}
