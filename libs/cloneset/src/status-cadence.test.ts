// Which CloneSet status changes are written at once, which within the prompt interval, and which are merged on the
// status write interval (docs/adr/0050-workload-status-write-cadence.md, docs/adr/0070-prompt-status-changes.md).
import {
  decideStatusWrite,
  PROMPT_STATUS_WRITE_INTERVAL_MS,
  STATUS_WRITE_INTERVAL_MS,
} from '@regatta/workload';
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
/** `n` pods, all at the update revision, `ready` of them ready and `available` available. */
const pods = (n: number, ready: number, available: number, expected = 3): ComputedCloneSetStatus => ({
  ...done,
  replicas: n,
  readyReplicas: ready,
  availableReplicas: available,
  updatedReplicas: n,
  updatedReadyReplicas: ready,
  updatedAvailableReplicas: available,
  expectedUpdatedReplicas: expected,
});

/** now: written at once; prompt: within the prompt interval; merged: on the status write interval. */
type When = 'now' | 'prompt' | 'merged';

const CASES: [string, ComputedCloneSetStatus, ComputedCloneSetStatus, number, When][] = [
  // a new CloneSet with minReadySeconds (OpenKruise's e2e cloneset.go:429, :717, :1705 wait 3 s for status.replicas)
  ['created: its pods exist, none ready yet', pods(0, 0, 0), pods(3, 0, 0), 3, 'prompt'],
  ['created: some pods exist', pods(0, 0, 0), pods(2, 0, 0), 3, 'prompt'],
  ['pods ready, not yet available (minReadySeconds)', pods(3, 0, 0), pods(3, 3, 0), 3, 'prompt'],
  ['one pod available after minReadySeconds', pods(3, 3, 0), pods(3, 3, 1), 3, 'prompt'],
  ['every pod available: settled', pods(3, 3, 2), pods(3, 3, 3), 3, 'now'],
  ['created without minReadySeconds: all ready and available', pods(3, 0, 0), pods(3, 3, 3), 3, 'now'],
  // scale and readiness outside a rollout
  ['scaled up to spec.replicas, all ready', { ...done, replicas: 8, readyReplicas: 8 }, done, 10, 'now'],
  ['scaling up, not all there yet', pods(6, 6, 6, 10), pods(8, 6, 6, 10), 10, 'prompt'],
  ['scaling down, not all gone yet', pods(10, 10, 10, 5), pods(8, 8, 8, 5), 5, 'prompt'],
  ['scaled down to 0', pods(1, 1, 1, 0), pods(0, 0, 0, 0), 0, 'now'],
  ['a pod lost (deleted, evicted)', done, pods(9, 9, 9, 10), 10, 'prompt'],
  ['a pod turning unready', done, pods(10, 9, 9, 10), 10, 'prompt'],
  ['a pod back to ready', pods(10, 9, 9, 10), pods(10, 10, 9, 10), 10, 'prompt'],
  [
    'all ready, one not yet available (minReadySeconds)',
    pods(10, 9, 9, 10),
    pods(10, 10, 9, 10),
    10,
    'prompt',
  ],
  [
    'at the partition (3 of 10 updated), a not-updated pod turns unready',
    {
      ...done,
      expectedUpdatedReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 3,
    },
    {
      ...done,
      expectedUpdatedReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      updatedAvailableReplicas: 3,
      readyReplicas: 9,
      availableReplicas: 9,
    },
    10,
    'prompt',
  ],
  // a rollout's progress: merged
  ['a pod ready mid-rollout', mid, { ...mid, readyReplicas: 9, availableReplicas: 9 }, 10, 'merged'],
  ['a pod updated mid-rollout', mid, { ...mid, updatedReplicas: 6 }, 10, 'merged'],
  [
    'a pod updated in place mid-rollout: unready while it is',
    mid,
    { ...mid, updatedReplicas: 6, readyReplicas: 7, availableReplicas: 7 },
    10,
    'merged',
  ],
  [
    'a pod recreated mid-rollout: one fewer for now',
    mid,
    { ...mid, replicas: 9, readyReplicas: 7 },
    10,
    'merged',
  ],
  [
    'the last pod updated, not ready yet: the rollout is no longer under way',
    { ...mid, updatedReplicas: 9, updatedReadyReplicas: 9, updatedAvailableReplicas: 9, readyReplicas: 10 },
    { ...mid, updatedReplicas: 10, updatedReadyReplicas: 9, updatedAvailableReplicas: 9, readyReplicas: 9 },
    10,
    'prompt',
  ],
  [
    'the last pod updated, readiness as stored: only progress counters',
    { ...mid, updatedReplicas: 9, updatedReadyReplicas: 8, updatedAvailableReplicas: 8, readyReplicas: 9 },
    { ...mid, updatedReplicas: 10, updatedReadyReplicas: 8, updatedAvailableReplicas: 8, readyReplicas: 9 },
    10,
    'merged',
  ],
  ['the last pod ready: done, with the current revision', mid, done, 10, 'now'],
  ['counters reaching done (current revision already)', { ...done, readyReplicas: 9 }, done, 10, 'now'],
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
    'now',
  ],
  // anything but a replica count: at once
  ['observedGeneration', done, { ...done, observedGeneration: 3 }, 10, 'now'],
  ['expectedUpdatedReplicas (partition changed)', done, { ...done, expectedUpdatedReplicas: 5 }, 10, 'now'],
  ['collisionCount', mid, { ...mid, collisionCount: 1 }, 10, 'now'],
  ['a condition', mid, { ...mid, conditions: [{ type: 'Progressing', status: 'True' }] }, 10, 'now'],
];

const decide = (
  stored: ComputedCloneSetStatus,
  next: ComputedCloneSetStatus,
  spec: number,
  sinceMs: number,
) =>
  decideStatusWrite(
    { stored, next, changed: statusChanged({ ...stored }, next), lastWriteMs: 1000, nowMs: 1000 + sinceMs },
    cloneSetStatusCadence(spec),
  );

describe('cloneSetStatusCadence: which status changes are written at once, which promptly, which merged', () => {
  it.each(CASES)('%s: %s → %s', (_, stored, next, spec, when) => {
    // 300 ms after the last status write
    expect(decide(stored, next, spec, 300)).toEqual(
      when === 'now'
        ? { action: 'write', why: 'urgent' }
        : {
            action: 'defer',
            afterMs: (when === 'prompt' ? PROMPT_STATUS_WRITE_INTERVAL_MS : STATUS_WRITE_INTERVAL_MS) - 300,
          },
    );
    // once the prompt interval is gone a prompt change is written; progress still waits for the full interval
    const later = decide(stored, next, spec, PROMPT_STATUS_WRITE_INTERVAL_MS);
    if (when === 'merged')
      expect(later).toEqual({
        action: 'defer',
        afterMs: STATUS_WRITE_INTERVAL_MS - PROMPT_STATUS_WRITE_INTERVAL_MS,
      });
    else expect(later).toEqual({ action: 'write', why: when === 'now' ? 'urgent' : 'prompt' });
  });

  it('the prompt interval is under a second, within the 3 s OpenKruise e2e specs give status.replicas', () => {
    expect(PROMPT_STATUS_WRITE_INTERVAL_MS).toBeLessThan(1000);
    expect(PROMPT_STATUS_WRITE_INTERVAL_MS).toBeLessThan(STATUS_WRITE_INTERVAL_MS);
  });
});
