import {
  decideStatusWrite,
  PROMPT_STATUS_WRITE_INTERVAL_MS,
  STATUS_WRITE_INTERVAL_MS,
} from '@regatta/workload';
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

/** now: written at once; prompt: within the prompt interval (ADR 0070); merged: on the status write interval. */
type When = 'now' | 'prompt' | 'merged';

describe('daemonSetStatusCadence: what an Advanced DaemonSet writes at once, 400 ms after its last write', () => {
  it.each<[string, DaemonSetCounts, DaemonSetCounts, string | number | null, When]>([
    [
      'a pod ready mid-rollout',
      mid,
      { ...mid, numberReady: 4, numberAvailable: 4, numberUnavailable: 0 },
      null,
      'merged',
    ],
    ['a pod updated mid-rollout', mid, { ...mid, updatedNumberScheduled: 3 }, null, 'merged'],
    ['the last node updated and ready', { ...mid, updatedNumberScheduled: 3 }, done, null, 'now'],
    ['partition 2 reached', mid, { ...done, updatedNumberScheduled: 2 }, 2, 'now'],
    ['partition 50% not reached', mid, { ...done, updatedNumberScheduled: 1 }, '50%', 'merged'],
    [
      'a node added, its pod created, not yet ready',
      done,
      {
        ...done,
        desiredNumberScheduled: 5,
        currentNumberScheduled: 5,
        updatedNumberScheduled: 5,
        numberUnavailable: 1,
      },
      null,
      'prompt',
    ],
    [
      'a node added, no pod yet',
      done,
      { ...done, desiredNumberScheduled: 5, numberUnavailable: 1 },
      null,
      'prompt',
    ],
    [
      'a pod turning unready, no rollout',
      done,
      { ...done, numberReady: 3, numberAvailable: 3, numberUnavailable: 1 },
      null,
      'prompt',
    ],
    [
      'a new DaemonSet: pods ready, not yet available (minReadySeconds)',
      { ...done, numberReady: 0, numberAvailable: 0, numberUnavailable: 4 },
      { ...done, numberAvailable: 0, numberUnavailable: 4 },
      null,
      'prompt',
    ],
  ])('%s', (_, stored, next, partition, want) => {
    const d = decideStatusWrite(
      { stored: status(stored), next: status(next), changed: true, lastWriteMs: 1000, nowMs: 1400 },
      daemonSetStatusCadence(partition),
    );
    expect(d).toEqual(
      want === 'now'
        ? { action: 'write', why: 'urgent' }
        : {
            action: 'defer',
            afterMs: (want === 'prompt' ? PROMPT_STATUS_WRITE_INTERVAL_MS : STATUS_WRITE_INTERVAL_MS) - 400,
          },
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
