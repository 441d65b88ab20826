import { describe, expect, it } from 'vitest';
import { afterWatch, nextBackoffMs, retryDelayMs, type AfterWatch, type WatchEnding } from './list-watch-decision.js';

describe('afterWatch', () => {
  const cases: [string, WatchEnding, AfterWatch][] = [
    ['server timeout after events', { kind: 'stream-ended', events: 12, durationMs: 300_000 }, { action: 'resume' }],
    ['socket closed mid-stream', { kind: 'stream-ended', events: 3, durationMs: 800 }, { action: 'resume' }],
    ['quiet stream ended by the idle timer', { kind: 'stream-ended', events: 0, durationMs: 30_000 }, { action: 'resume' }],
    [
      'closed at once, nothing sent',
      { kind: 'stream-ended', events: 0, durationMs: 20 },
      { action: 'backoff-resume', delayMs: 500 },
    ],
    ['410 Gone status', { kind: 'refused', status: 410 }, { action: 'relist', delayMs: 0 }],
    ['ERROR event 410 Expired', { kind: 'error-event', code: 410 }, { action: 'relist', delayMs: 0 }],
    [
      '429 with Retry-After',
      { kind: 'refused', status: 429, retryAfterSeconds: 3 },
      { action: 'backoff-resume', delayMs: 3000 },
    ],
    [
      '429 with a huge Retry-After: capped',
      { kind: 'refused', status: 429, retryAfterSeconds: 3600 },
      { action: 'backoff-resume', delayMs: 60_000 },
    ],
    ['429 without Retry-After', { kind: 'refused', status: 429 }, { action: 'backoff-resume', delayMs: 500 }],
    ['500', { kind: 'refused', status: 500 }, { action: 'backoff-resume', delayMs: 500 }],
    [
      '503 with Retry-After',
      { kind: 'refused', status: 503, retryAfterSeconds: 1 },
      { action: 'backoff-resume', delayMs: 1000 },
    ],
    ['no response (refused, reset, timeout)', { kind: 'refused', status: 0 }, { action: 'backoff-resume', delayMs: 500 }],
    ['ERROR event 500', { kind: 'error-event', code: 500 }, { action: 'backoff-resume', delayMs: 500 }],
    ['403 Forbidden', { kind: 'refused', status: 403 }, { action: 'relist', delayMs: 500 }],
    ['404 (kind removed)', { kind: 'refused', status: 404 }, { action: 'relist', delayMs: 500 }],
    ['ERROR event 400', { kind: 'error-event', code: 400 }, { action: 'relist', delayMs: 500 }],
  ];
  it.each(cases)('%s', (_name, ending, want) => {
    expect(afterWatch(ending, 500)).toEqual(want);
  });
});

describe('back-off', () => {
  it('doubles up to 30 s', () => {
    expect([250, 16_000, 30_000].map(nextBackoffMs)).toEqual([500, 30_000, 30_000]);
  });
  it('takes Retry-After when given and positive', () => {
    expect([retryDelayMs(250), retryDelayMs(250, 0), retryDelayMs(250, 2)]).toEqual([250, 250, 2000]);
  });
});
