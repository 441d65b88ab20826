import { describe, expect, it } from 'vitest';
import { rolloutProgress, type RolloutKind, type Workload } from './rollout-status.js';

const w = (generation: number, spec: Record<string, unknown>, status: Record<string, unknown>): Workload => ({
  metadata: { name: 'x', generation },
  spec,
  status,
});

// [case, kind, workload, complete, pending]
const CASES: [string, RolloutKind, Workload, boolean, string[]][] = [
  [
    'CloneSet all updated and available',
    'CloneSet',
    w(2, { replicas: 3 }, { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }),
    true,
    [],
  ],
  [
    'CloneSet status not observed yet',
    'CloneSet',
    w(3, { replicas: 3 }, { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 }),
    false,
    ['the controller to observe generation 3 (status is at 2)'],
  ],
  [
    'CloneSet mid-rollout, paused',
    'CloneSet',
    w(
      2,
      { replicas: 4, updateStrategy: { paused: true } },
      { observedGeneration: 2, replicas: 4, updatedReplicas: 1, readyReplicas: 4, availableReplicas: 4 },
    ),
    false,
    ['3 of 4 pods to be updated (paused)'],
  ],
  [
    'CloneSet partition 2 of 5 reached',
    'CloneSet',
    w(
      2,
      { replicas: 5, updateStrategy: { partition: 2 } },
      { observedGeneration: 2, replicas: 5, updatedReplicas: 3, readyReplicas: 5, availableReplicas: 5 },
    ),
    true,
    [],
  ],
  [
    'CloneSet partition 40% of 5 (2 kept), one short',
    'CloneSet',
    w(
      2,
      { replicas: 5, updateStrategy: { partition: '40%' } },
      { observedGeneration: 2, replicas: 5, updatedReplicas: 2, readyReplicas: 5, availableReplicas: 5 },
    ),
    false,
    ['1 of 3 pods to be updated'],
  ],
  [
    'CloneSet surge pod still there, one not available',
    'CloneSet',
    w(2, { replicas: 3 }, { observedGeneration: 2, replicas: 4, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 2 }),
    false,
    ['1 old pods to be removed', '1 of 3 pods to be available'],
  ],
  [
    'Advanced StatefulSet partition via rollingUpdate',
    'StatefulSet',
    w(
      1,
      { replicas: 3, updateStrategy: { rollingUpdate: { partition: 1, paused: false } } },
      { observedGeneration: 1, replicas: 3, updatedReplicas: 2, readyReplicas: 3, availableReplicas: 3 },
    ),
    true,
    [],
  ],
  [
    'Advanced StatefulSet not ready',
    'StatefulSet',
    w(1, { replicas: 3 }, { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 1, availableReplicas: 1 }),
    false,
    ['2 of 3 pods to be ready', '2 of 3 pods to be available'],
  ],
  [
    'Advanced DaemonSet complete',
    'DaemonSet',
    w(
      4,
      {},
      { observedGeneration: 4, desiredNumberScheduled: 5, updatedNumberScheduled: 5, numberReady: 5, numberAvailable: 5 },
    ),
    true,
    [],
  ],
  [
    'Advanced DaemonSet paused with partition 2',
    'DaemonSet',
    w(
      4,
      { updateStrategy: { rollingUpdate: { partition: 2, paused: true } } },
      { observedGeneration: 4, desiredNumberScheduled: 5, updatedNumberScheduled: 1, numberReady: 5, numberAvailable: 5 },
    ),
    false,
    ['2 of 3 pods to be updated (paused)'],
  ],
  [
    'UnitedDeployment partitions sum up',
    'UnitedDeployment',
    w(
      2,
      { replicas: 6, updateStrategy: { manualUpdate: { partitions: { a: 1, b: 2 } } } },
      { observedGeneration: 2, replicas: 6, updatedReplicas: 3, readyReplicas: 6, updatedRevision: 'ud-abc' },
    ),
    true,
    [],
  ],
  [
    'UnitedDeployment not ready',
    'UnitedDeployment',
    w(2, { replicas: 4 }, { observedGeneration: 2, replicas: 4, updatedReplicas: 4, readyReplicas: 3 }),
    false,
    ['1 of 4 pods to be ready'],
  ],
  ['a workload never reconciled', 'CloneSet', w(1, { replicas: 1 }, {}), false, ['the controller to observe generation 1 (status is at 0)']],
];

describe('rolloutProgress', () => {
  it.each(CASES)('%s', (_name, kind, workload, complete, pending) => {
    const p = rolloutProgress(kind, workload);
    expect({ complete: p.complete, pending: p.pending }).toEqual({ complete, pending });
  });

  it('reads partition, pause and revisions per kind', () => {
    const ud = rolloutProgress(
      'UnitedDeployment',
      w(1, { replicas: 3, updateStrategy: { manualUpdate: { partitions: { a: 5 } } } }, { updateStatus: { updatedRevision: 'r2' }, currentRevision: 'r1' }),
    );
    expect([ud.partition, ud.expectedUpdated, ud.updateRevision, ud.currentRevision, ud.paused]).toEqual([3, 0, 'r2', 'r1', false]);
    const cs = rolloutProgress('CloneSet', w(1, { replicas: 2, updateStrategy: { paused: true } }, { updateRevision: 'cs-2' }));
    expect([cs.partition, cs.paused, cs.updateRevision]).toEqual([0, true, 'cs-2']);
  });
});

describe('rolloutProgress of a SidecarSet', () => {
  const sidecar = (spec: Record<string, unknown>, status: Record<string, unknown>) =>
    rolloutProgress('SidecarSet', w(2, spec, { observedGeneration: 2, ...status }));

  it.each<[string, Record<string, unknown>, Record<string, unknown>, boolean, string[]]>([
    ['all matched pods updated and ready', {}, { matchedPods: 3, updatedPods: 3, readyPods: 3, updatedReadyPods: 3 }, true, []],
    [
      'updated but not ready yet',
      {},
      { matchedPods: 3, updatedPods: 3, readyPods: 2, updatedReadyPods: 2 },
      false,
      ['1 of 3 pods to be ready', '1 of 3 updated pods to be ready'],
    ],
    [
      'paused with 2 of 4 updated',
      { updateStrategy: { paused: true } },
      { matchedPods: 4, updatedPods: 2, readyPods: 4, updatedReadyPods: 2 },
      false,
      ['2 of 4 pods to be updated (paused)', '2 of 4 updated pods to be ready'],
    ],
    ['partition 50% reached', { updateStrategy: { partition: '50%' } }, { matchedPods: 4, updatedPods: 2, readyPods: 4, updatedReadyPods: 2 }, true, []],
    ['NotUpdate expects no update', { updateStrategy: { type: 'NotUpdate' } }, { matchedPods: 2, updatedPods: 0, readyPods: 2, updatedReadyPods: 0 }, true, []],
    ['no pod matched', {}, {}, true, []],
  ])('%s', (_case, spec, status, complete, pending) => {
    const p = sidecar(spec, status);
    expect(p.pending).toEqual(pending);
    expect(p.complete).toBe(complete);
  });

  it('reads paused, latestRevision and the counts', () => {
    const p = sidecar(
      { updateStrategy: { paused: true, partition: 1 } },
      { matchedPods: 3, updatedPods: 1, readyPods: 3, updatedReadyPods: 1, latestRevision: 'logging-5d4b' },
    );
    expect(p).toMatchObject({ desired: 3, expectedUpdated: 2, updated: 1, updatedReady: 1, paused: true, updateRevision: 'logging-5d4b' });
  });
});
