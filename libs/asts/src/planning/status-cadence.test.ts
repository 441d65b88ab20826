import {
  decideStatusWrite,
  PROMPT_STATUS_WRITE_INTERVAL_MS,
  STATUS_WRITE_INTERVAL_MS,
} from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { type ComputedStatus, statefulSetStatusCadence } from './status.js';

const done: ComputedStatus = {
  observedGeneration: 2,
  replicas: 5,
  readyReplicas: 5,
  availableReplicas: 5,
  currentReplicas: 5,
  updatedReplicas: 5,
  updatedReadyReplicas: 5,
  updatedAvailableReplicas: 5,
  currentRevision: 'r2',
  updateRevision: 'r2',
  collisionCount: 0,
  labelSelector: 'app=web',
  volumeClaims: [],
};
const mid: ComputedStatus = {
  ...done,
  readyReplicas: 4,
  availableReplicas: 4,
  currentReplicas: 3,
  updatedReplicas: 2,
  updatedReadyReplicas: 1,
  updatedAvailableReplicas: 1,
  currentRevision: 'r1',
};

/** now: written at once; prompt: within the prompt interval (ADR 0070); merged: on the status write interval. */
type When = 'now' | 'prompt' | 'merged';

describe('statefulSetStatusCadence: what an Advanced StatefulSet writes at once, 200 ms after its last write', () => {
  it.each<[string, ComputedStatus, ComputedStatus, number, number, When]>([
    ['a pod ready mid-rollout', mid, { ...mid, readyReplicas: 5, availableReplicas: 5 }, 5, 0, 'merged'],
    ['the rollout done, with the current revision', mid, done, 5, 0, 'now'],
    ['counters reaching done', { ...done, updatedReadyReplicas: 4 }, done, 5, 0, 'now'],
    [
      'partition 3 reached: 2 updated and ready',
      { ...done, updatedReplicas: 2, updatedReadyReplicas: 1, updatedAvailableReplicas: 1 },
      { ...done, updatedReplicas: 2, updatedReadyReplicas: 2, updatedAvailableReplicas: 2 },
      5,
      3,
      'now',
    ],
    [
      'scaling up, 3 of 5 (ordered: the third pod created, not ready yet)',
      {
        ...done,
        replicas: 2,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 2,
        updatedReadyReplicas: 2,
      },
      {
        ...done,
        replicas: 3,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 3,
        updatedReadyReplicas: 2,
      },
      5,
      0,
      'prompt',
    ],
    [
      'scaling up, the third pod ready',
      {
        ...done,
        replicas: 3,
        readyReplicas: 2,
        availableReplicas: 2,
        updatedReplicas: 3,
        updatedReadyReplicas: 2,
      },
      {
        ...done,
        replicas: 3,
        readyReplicas: 3,
        availableReplicas: 3,
        updatedReplicas: 3,
        updatedReadyReplicas: 3,
      },
      5,
      0,
      'prompt',
    ],
    [
      'a pod turning unready, no rollout',
      done,
      { ...done, readyReplicas: 4, updatedReadyReplicas: 4 },
      5,
      0,
      'prompt',
    ],
    [
      'a claim count',
      mid,
      {
        ...mid,
        volumeClaims: [{ volumeClaimName: 'data', compatibleReplicas: 1, compatibleReadyReplicas: 1 }],
      },
      5,
      0,
      'merged',
    ],
    ['updateRevision', mid, { ...mid, updateRevision: 'r3' }, 5, 0, 'now'],
    ['observedGeneration', mid, { ...mid, observedGeneration: 3 }, 5, 0, 'now'],
  ])('%s: %s', (_, stored, next, replicas, partition, want) => {
    const d = decideStatusWrite(
      { stored, next, changed: true, lastWriteMs: 1000, nowMs: 1200 },
      statefulSetStatusCadence(replicas, partition),
    );
    expect(d).toEqual(
      want === 'now'
        ? { action: 'write', why: 'urgent' }
        : {
            action: 'defer',
            afterMs: (want === 'prompt' ? PROMPT_STATUS_WRITE_INTERVAL_MS : STATUS_WRITE_INTERVAL_MS) - 200,
          },
    );
  });
});
