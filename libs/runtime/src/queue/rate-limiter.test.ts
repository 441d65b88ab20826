import { describe, expect, it } from 'vitest';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
} from './rate-limiter.js';

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles from the base delay per failure of the same item, independently per item', () => {
    const l = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    expect([l.when('a'), l.when('a'), l.when('a'), l.when('a')]).toEqual([5, 10, 20, 40]);
    expect(l.when('b')).toBe(5);
    expect(l.numRequeues('a')).toBe(4);
    expect(l.numRequeues('b')).toBe(1);
  });

  it('caps at the maximum, even after enough failures to overflow', () => {
    const l = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    let last = 0;
    for (let i = 0; i < 2000; i++) last = l.when('a');
    expect(last).toBe(1_000_000);
    // 5 ms · 2^18 = 1310.72 s is the first step above 1000 s
    const fresh = new ItemExponentialFailureRateLimiter(5, 1_000_000);
    const delays = Array.from({ length: 20 }, () => fresh.when('x'));
    expect(delays[17]).toBe(5 * 2 ** 17);
    expect(delays[18]).toBe(1_000_000);
  });

  it('starts over after forget', () => {
    const l = new ItemExponentialFailureRateLimiter(5, 1000);
    l.when('a');
    l.when('a');
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(l.when('a')).toBe(5);
  });
});

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces items at 1/qps, refilling as time passes', () => {
    let now = 0;
    const l = new BucketRateLimiter(10, 100, () => now);
    const burst = Array.from({ length: 100 }, (_, i) => l.when(`k${i}`));
    expect(burst.every((d) => d === 0)).toBe(true);
    expect(l.when('x')).toBeCloseTo(100);
    expect(l.when('y')).toBeCloseTo(200);
    now += 1000; // 10 tokens back: the debt of 2 is paid, 8 are left
    const next = Array.from({ length: 9 }, () => l.when('z'));
    expect(next.slice(0, 8)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(next[8]).toBeCloseTo(100);
    expect(l.numRequeues('x')).toBe(0);
  });

  it('never saves more than the burst', () => {
    let now = 0;
    const l = new BucketRateLimiter(10, 2, () => now);
    now += 3_600_000;
    expect([l.when('a'), l.when('a')]).toEqual([0, 0]);
    expect(l.when('a')).toBeCloseTo(100);
  });
});

describe('MaxOfRateLimiter and the default controller limiter', () => {
  it('takes the longest delay and records the retry in every limiter', () => {
    const a = new ItemExponentialFailureRateLimiter(1, 1000);
    const b = new ItemExponentialFailureRateLimiter(3, 1000);
    const l = new MaxOfRateLimiter(a, b);
    expect(l.when('k')).toBe(3);
    expect(l.when('k')).toBe(6);
    expect(a.numRequeues('k')).toBe(2);
    expect(l.numRequeues('k')).toBe(2);
    l.forget('k');
    expect(a.numRequeues('k')).toBe(0);
    expect(b.numRequeues('k')).toBe(0);
  });

  it('is per-item exponential from 5 ms inside the burst, and bucket-limited beyond it', () => {
    const now = 0;
    const l = defaultControllerRateLimiter(() => now);
    expect([l.when('a'), l.when('a'), l.when('a')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) l.when(`other-${i}`);
    // the bucket is empty now: a fresh item waits for a token (100 ms) rather than 5 ms
    expect(l.when('fresh')).toBeCloseTo(100);
  });
});
