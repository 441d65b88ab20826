import { describe, expect, it } from 'vitest';
import {
  decideStatusWrite,
  reportSyncDelayMs,
  requeueAfterMs,
  sameJson,
  syncBackoffMs,
  TokenBucket,
} from './rate-limit.js';

describe('TokenBucket (0.5 QPS, burst 5)', () => {
  it('allows a burst of 5, then one every 2 s', () => {
    const b = new TokenBucket(0.5, 5, 0);
    expect([1, 2, 3, 4, 5, 6].map(() => b.allow(0))).toEqual([true, true, true, true, true, false]);
    expect(b.allow(1000)).toBe(false);
    expect(b.allow(2000)).toBe(true);
    expect(b.allow(2000)).toBe(false);
    // a long quiet time refills only up to the burst
    expect(Array.from({ length: 6 }, () => b.allow(1_000_000))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('decideStatusWrite (statusUpdater.updateStatus)', () => {
  const status = { desired: 1, succeeded: 1 };
  it.each([
    ['changed status: write', { desired: 1, succeeded: 0 }, 0, 5, 'write'],
    ['unchanged, written a minute ago: nothing', { succeeded: 1, desired: 1 }, 60_000, 5, 'unchanged'],
    ['unchanged for 12 h + jitter: rewrite', status, 13.1 * 3600_000, 5, 'write'],
    ['changed but the bucket is empty: limited', { desired: 2 }, 0, 0, 'limited'],
  ])('%s', (_n, lastWritten, ago, burst, want) => {
    const now = 20 * 3600_000;
    const bucket = new TokenBucket(0.5, burst, now);
    expect(
      decideStatusWrite({ status, lastWritten, lastWriteAt: now - ago, now, bucket, jitter: 0.99 }),
    ).toBe(want);
  });
});

describe('requeue and backoff', () => {
  it('3–5 s while pulling, 20–30 min otherwise', () => {
    expect(requeueAfterMs(true, 0)).toBe(3000);
    expect(requeueAfterMs(true, 0.999)).toBeLessThan(5000);
    expect(requeueAfterMs(false, 0)).toBe(20 * 60_000);
    expect(requeueAfterMs(false, 0.999)).toBeLessThan(30 * 60_000);
  });
  it.each([
    [0, 500],
    [1, 1000],
    [6, 32_000],
    [7, 50_000],
    [30, 50_000],
  ])('sync failure %i → %i ms', (n, ms) => expect(syncBackoffMs(n)).toBe(ms));
  it('JSON equality ignores key order', () => {
    expect(sameJson({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(
      true,
    );
    expect(sameJson({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
  });
});

describe('reportSyncDelayMs: when a worker report is written', () => {
  it.each([
    ['a final phase 5 s after the spec change: at once', true, 5000, 0],
    ['a final phase 1 s after the spec change (image present): 3 s after the change', true, 1000, 2000],
    ['a final phase exactly 3 s after: at once', true, 3000, 0],
    ['Pulling or progress: the 3–5 s cadence', false, 5000, 3000],
    ['Waiting right after the change: the cadence', false, 10, 3000],
  ])('%s', (_n, final, since, want) => {
    expect(reportSyncDelayMs({ final, specChangedAt: 100_000, now: 100_000 + since, jitter: 0 })).toBe(want);
  });
});
