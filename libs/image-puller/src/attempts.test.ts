import { describe, expect, it } from 'vitest';
import { attemptTimeout, backoffAfter, needsPull, pullSettings } from './attempts.js';

describe('pullSettings (imagepuller_worker.go Run)', () => {
  it.each([
    ['defaults', undefined, { attempts: 4, timeoutMs: 600_000 }],
    ['backoffLimit 0 → one attempt', { backoffLimit: 0 }, { attempts: 1, timeoutMs: 600_000 }],
    ['negative backoffLimit → default 3', { backoffLimit: -1 }, { attempts: 4, timeoutMs: 600_000 }],
    ['timeout 50 s, backoff 2', { timeoutSeconds: 50, backoffLimit: 2 }, { attempts: 3, timeoutMs: 50_000 }],
    [
      'deadline from the start',
      { activeDeadlineSeconds: 30 },
      { attempts: 4, timeoutMs: 600_000, deadline: 1000 + 30_000 },
    ],
  ])('%s', (_n, policy, want) => {
    expect(pullSettings(policy, 1000)).toEqual(want);
  });
});

describe('attemptTimeout', () => {
  it.each([
    ['no deadline: the timeout', { attempts: 1, timeoutMs: 600_000 }, 5, 600_000],
    ['deadline further than the timeout', { attempts: 1, timeoutMs: 10_000, deadline: 100_000 }, 0, 10_000],
    [
      'deadline nearer than the timeout',
      { attempts: 1, timeoutMs: 10_000, deadline: 100_000 },
      95_000,
      5_000,
    ],
    ['deadline reached', { attempts: 1, timeoutMs: 10_000, deadline: 100_000 }, 100_000, 'exceeded'],
    ['deadline passed', { attempts: 1, timeoutMs: 10_000, deadline: 100_000 }, 200_000, 'exceeded'],
  ])('%s', (_n, s, now, want) => {
    expect(attemptTimeout(s, now)).toBe(want);
  });
});

describe('backoffAfter: 1 s, 2 s, 4 s … at most 30 s', () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16_000],
    [5, 30_000],
    [40, 30_000],
  ])('after attempt %i → %i ms', (n, ms) => expect(backoffAfter(n)).toBe(ms));
});

describe('needsPull', () => {
  it.each([
    ['IfNotPresent', true, false],
    ['IfNotPresent', false, true],
    ['Always', true, true],
    ['', true, true],
    [undefined, true, true],
  ])('%s, present %s → %s', (policy, present, want) => expect(needsPull(policy, present)).toBe(want));
});
