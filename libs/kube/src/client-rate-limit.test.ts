import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RATE_LIMIT,
  RateLimitConfigError,
  rateLimitFromEnv,
  reserveToken,
  throttledRetryDelayMs,
  type BucketState,
} from './client-rate-limit.js';
import { ConflictError, ServerError, TooManyRequestsError } from './errors.js';

describe('reserveToken: a token bucket of qps 10, burst 3', () => {
  const limit = { qps: 10, burst: 3 };
  /** The waits of requests sent at these times (ms), starting full at 0. */
  const waits = (times: number[]): number[] => {
    let state: BucketState = { tokens: limit.burst, atMs: 0 };
    return times.map((t) => {
      const r = reserveToken(limit, state, t);
      state = r.state;
      return Math.round(r.waitMs);
    });
  };

  it.each([
    { case: 'a burst goes at once', times: [0, 0, 0], want: [0, 0, 0] },
    { case: 'past the burst, each waits one more 1/qps', times: [0, 0, 0, 0, 0], want: [0, 0, 0, 100, 200] },
    { case: 'time refills the bucket', times: [0, 0, 0, 100, 200], want: [0, 0, 0, 0, 0] },
    { case: 'a quiet spell refills to the burst, no more', times: [0, 5000, 5000, 5000, 5000], want: [0, 0, 0, 0, 100] },
    { case: 'a request at 50 ms after an empty bucket waits the rest', times: [0, 0, 0, 50], want: [0, 0, 0, 50] },
  ])('$case', ({ times, want }) => {
    expect(waits(times)).toEqual(want);
  });
});

describe('throttledRetryDelayMs: only a throttled request is sent again', () => {
  const throttled = (after?: number) => new TooManyRequestsError({ status: 429, serverMessage: 'slow down', retryAfterSeconds: after });
  it.each([
    { case: '429 with Retry-After 2', err: throttled(2), retries: 0, want: 2000 },
    { case: '429 without Retry-After waits 1 s', err: throttled(), retries: 3, want: 1000 },
    { case: 'a long Retry-After is cut to 30 s', err: throttled(600), retries: 0, want: 30_000 },
    { case: '429 after 10 retries is given up', err: throttled(1), retries: 10, want: undefined },
    {
      case: '503 with Retry-After (not processed)',
      err: new ServerError({ status: 503, serverMessage: 'shutting down', retryAfterSeconds: 1 }),
      retries: 0,
      want: 1000,
    },
    { case: '503 without Retry-After: maybe processed', err: new ServerError({ status: 503, serverMessage: 'x' }), retries: 0, want: undefined },
    { case: '409 Conflict is the caller’s', err: new ConflictError({ status: 409, serverMessage: 'stale' }), retries: 0, want: undefined },
    { case: 'not an API error', err: new Error('boom'), retries: 0, want: undefined },
  ])('$case', ({ err, retries, want }) => {
    expect(throttledRetryDelayMs(err, retries, undefined, () => 0)).toBe(want);
  });

  it('adds up to half the wait at random, so requests rejected together come back spread out', () => {
    const err = new TooManyRequestsError({ status: 429, serverMessage: 'slow down', retryAfterSeconds: 2 });
    expect(throttledRetryDelayMs(err, 0, undefined, () => 0.5)).toBe(2500);
    expect(throttledRetryDelayMs(err, 0, undefined, () => 0.999)).toBe(2999);
  });
});

describe('rateLimitFromEnv', () => {
  it.each([
    { case: 'nothing set: the default', env: {}, want: DEFAULT_RATE_LIMIT },
    { case: 'both set', env: { REGATTA_KUBE_QPS: '50', REGATTA_KUBE_BURST: '80' }, want: { qps: 50, burst: 80 } },
    { case: 'a QPS above the default burst raises the burst', env: { REGATTA_KUBE_QPS: '1000' }, want: { qps: 1000, burst: 1000 } },
    { case: 'QPS -1: no limit', env: { REGATTA_KUBE_QPS: '-1' }, want: undefined },
    { case: 'QPS 0: no limit', env: { REGATTA_KUBE_QPS: '0' }, want: undefined },
  ])('$case', ({ env, want }) => {
    expect(rateLimitFromEnv(env)).toEqual(want);
  });

  it.each([
    { env: { REGATTA_KUBE_QPS: 'fast' }, message: /REGATTA_KUBE_QPS='fast' is not a number/ },
    { env: { REGATTA_KUBE_BURST: '0' }, message: /REGATTA_KUBE_BURST='0' must be at least 1/ },
  ])('refuses $env with a message saying what to set', ({ env, message }) => {
    expect(() => rateLimitFromEnv(env)).toThrow(RateLimitConfigError);
    expect(() => rateLimitFromEnv(env)).toThrow(message);
  });
});
