import { decideStatusWrite, STATUS_WRITE_INTERVAL_MS } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { type DaemonSetCounts, daemonSetStatusCadence } from './status.js';

const done: DaemonSetCounts = {
  desiredNumberScheduled: 4,
  currentNumberScheduled: 4,
  numberMisscheduled: 0,
  numberReady: 4,
  updatedNumberScheduled: 4,
  numberAvailable: 4,
  numberUnavailable: 0,
};
const mid: DaemonSetCounts = {
  ...done,
  numberReady: 3,
  numberAvailable: 3,
  numberUnavailable: 1,
  updatedNumberScheduled: 2,
};
const status = (c: DaemonSetCounts, hash = 'h2') => ({
  ...c,
  updateRevision: hash,
  daemonSetHash: hash,
  observedGeneration: 2,
});

describe('daemonSetStatusCadence: what an Advanced DaemonSet writes at once, 400 ms after its last write', () => {
  it.each<[string, DaemonSetCounts, DaemonSetCounts, string | number | null, 'write' | 'defer']>([
    [
      'a pod ready mid-rollout',
      mid,
      { ...mid, numberReady: 4, numberAvailable: 4, numberUnavailable: 0 },
      null,
      'defer',
    ],
    ['the last node updated and ready', { ...mid, updatedNumberScheduled: 3 }, done, null, 'write'],
    ['partition 2 reached', mid, { ...done, updatedNumberScheduled: 2 }, 2, 'write'],
    ['partition 50% not reached', mid, { ...done, updatedNumberScheduled: 1 }, '50%', 'defer'],
    [
      'a node added, its pod not yet ready',
      done,
      { ...done, desiredNumberScheduled: 5, currentNumberScheduled: 5, numberUnavailable: 1 },
      null,
      'defer',
    ],
  ])('%s', (_, stored, next, partition, want) => {
    const d = decideStatusWrite(
      { stored: status(stored), next: status(next), changed: true, lastWriteMs: 1000, nowMs: 1400 },
      daemonSetStatusCadence(partition),
    );
    expect(d).toEqual(
      want === 'write' ? { action: 'write', why: 'urgent' } : { action: 'defer', afterMs: STATUS_WRITE_INTERVAL_MS - 400 },
    );
  });

  it('a new hash is written at once', () => {
    const d = decideStatusWrite(
      { stored: status(done, 'h1'), next: status(done, 'h2'), changed: true, lastWriteMs: 1000, nowMs: 1400 },
      daemonSetStatusCadence(null),
    );
    expect(d.action).toBe('write');
  });
});
