import { decideStatusWrite, STATUS_WRITE_INTERVAL_MS } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { type ComputedCloneSetStatus, cloneSetStatusCadence, statusChanged } from './status.js';

const done: ComputedCloneSetStatus = {
  observedGeneration: 2,
  replicas: 10,
  readyReplicas: 10,
  availableReplicas: 10,
  updatedReplicas: 10,
  updatedReadyReplicas: 10,
  updatedAvailableReplicas: 10,
  expectedUpdatedReplicas: 10,
  updateRevision: 'r2',
  currentRevision: 'r2',
  collisionCount: 0,
  labelSelector: 'app=web',
};
const mid: ComputedCloneSetStatus = {
  ...done,
  readyReplicas: 8,
  availableReplicas: 8,
  updatedReplicas: 5,
  updatedReadyReplicas: 3,
  updatedAvailableReplicas: 3,
  currentRevision: 'r1',
};

describe('cloneSetStatusCadence: what a CloneSet writes at once, 300 ms after its last status write', () => {
  it.each<[string, ComputedCloneSetStatus, ComputedCloneSetStatus, number, 'write' | 'defer']>([
    ['a pod ready mid-rollout', mid, { ...mid, readyReplicas: 9, availableReplicas: 9 }, 10, 'defer'],
    ['a pod updated mid-rollout', mid, { ...mid, updatedReplicas: 6 }, 10, 'defer'],
    ['the last pod ready: done, with the current revision', mid, done, 10, 'write'],
    ['counters reaching done (current revision already)', { ...done, readyReplicas: 9 }, done, 10, 'write'],
    ['scaled up to spec.replicas, all ready', { ...done, replicas: 8, readyReplicas: 8 }, done, 10, 'write'],
    ['scaling up, not all there yet', { ...done, replicas: 6 }, { ...done, replicas: 8 }, 10, 'defer'],
    [
      'scaled down to 0',
      { ...done, replicas: 1 },
      {
        ...done,
        replicas: 0,
        readyReplicas: 0,
        availableReplicas: 0,
        updatedReplicas: 0,
        updatedReadyReplicas: 0,
        updatedAvailableReplicas: 0,
      },
      0,
      'write',
    ],
    [
      'partition reached (3 of 10 expected, all ready)',
      {
        ...done,
        expectedUpdatedReplicas: 3,
        updatedReplicas: 3,
        updatedReadyReplicas: 2,
        updatedAvailableReplicas: 2,
      },
      {
        ...done,
        expectedUpdatedReplicas: 3,
        updatedReplicas: 3,
        updatedReadyReplicas: 3,
        updatedAvailableReplicas: 3,
      },
      10,
      'write',
    ],
    [
      'all ready, one not yet available (minReadySeconds): not done yet',
      {
        ...done,
        readyReplicas: 9,
        availableReplicas: 9,
        updatedReadyReplicas: 9,
        updatedAvailableReplicas: 9,
      },
      { ...done, availableReplicas: 9, updatedAvailableReplicas: 9 },
      10,
      'defer',
    ],
    [
      'available catching up, revision already current',
      { ...done, availableReplicas: 8, updatedAvailableReplicas: 8 },
      { ...done, availableReplicas: 9, updatedAvailableReplicas: 9 },
      10,
      'defer',
    ],
    ['observedGeneration', done, { ...done, observedGeneration: 3 }, 10, 'write'],
    [
      'expectedUpdatedReplicas (partition changed)',
      done,
      { ...done, expectedUpdatedReplicas: 5 },
      10,
      'write',
    ],
    ['collisionCount', mid, { ...mid, collisionCount: 1 }, 10, 'write'],
    ['a condition', mid, { ...mid, conditions: [{ type: 'Progressing', status: 'True' }] }, 10, 'write'],
  ])('%s: %s', (_, stored, next, specReplicas, want) => {
    const d = decideStatusWrite(
      { stored, next, changed: statusChanged({ ...stored }, next), lastWriteMs: 1000, nowMs: 1300 },
      cloneSetStatusCadence(specReplicas),
    );
    expect(d.action).toBe(want);
    if (d.action === 'defer') expect(d.afterMs).toBe(STATUS_WRITE_INTERVAL_MS - 300);
  });
});
