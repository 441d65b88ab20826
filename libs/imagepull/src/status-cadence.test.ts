import { describe, expect, it } from 'vitest';
import { decideJobStatusWrite, JOB_STATUS_WRITE_INTERVAL_MS, type JobStatusWrite } from './status-cadence.js';

const running = (active: number, succeeded: number, extra: Record<string, unknown> = {}) => ({
  startTime: '2026-12-04T15:00:00Z',
  desired: 50,
  active,
  succeeded,
  failed: 0,
  message: `job is running, progress ${(100 * succeeded) / 50}%`,
  ...extra,
});

describe('decideJobStatusWrite', () => {
  it.each<[string, unknown, unknown, number | undefined, number, JobStatusWrite]>([
    ['a first status', undefined, running(10, 0), undefined, 0, { action: 'write' }],
    ['a first status right after another write', null, running(10, 0), 1000, 1100, { action: 'write' }],
    ['nothing changed', running(10, 1), running(10, 1), 1000, 1100, { action: 'unchanged' }],
    ['the same fields in another order', { succeeded: 1, active: 10 }, { active: 10, succeeded: 1 }, 1000, 1100, { action: 'unchanged' }],
    ['counters, no write in memory', running(10, 1), running(10, 2), undefined, 5000, { action: 'write' }],
    ['counters, 300 ms after the last write', running(10, 1), running(9, 2), 1000, 1300, { action: 'defer', afterMs: JOB_STATUS_WRITE_INTERVAL_MS - 300 }],
    ['counters, the interval over', running(10, 1), running(9, 2), 1000, 1000 + JOB_STATUS_WRITE_INTERVAL_MS, { action: 'write' }],
    ['counters, the clock went back', running(10, 1), running(9, 2), 5000, 4000, { action: 'write' }],
    [
      'completion is written at once',
      running(1, 49),
      running(0, 50, { completionTime: '2026-12-04T15:00:30Z', message: 'job has completed' }),
      1000,
      1100,
      { action: 'write' },
    ],
    ['a failed node is written at once', running(10, 1), running(9, 1, { failed: 1, failedNodes: ['n3'] }), 1000, 1100, { action: 'write' }],
    ['startTime appearing is written at once', { desired: 50 }, { desired: 50, startTime: 'x' }, 1000, 1100, { action: 'write' }],
    ['desired only (a node joined)', running(10, 1), running(10, 1, { desired: 51 }), 1000, 1500, { action: 'defer', afterMs: JOB_STATUS_WRITE_INTERVAL_MS - 500 }],
  ])('%s', (_name, stored, next, lastWriteMs, nowMs, want) => {
    expect(decideJobStatusWrite({ stored, next, lastWriteMs, nowMs })).toEqual(want);
  });
});
