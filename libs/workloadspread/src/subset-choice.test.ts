import type { WorkloadSpread } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { VERSION_IGNORED } from './matched.js';
import { placePod, subsetForOrdinal, subsetMaxReplicas } from './subset-choice.js';

const now = new Date('2026-12-07T10:00:00Z');
const spread = (subsets: WorkloadSpread['spec']['subsets'], status?: WorkloadSpread['status']): WorkloadSpread => ({
  metadata: { name: 'ws', namespace: 'ns', uid: 'u' },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' }, subsets },
  ...(status ? { status } : {}),
});
const place = (ws: WorkloadSpread, podName = '', replicas = 6, extra = {}) =>
  placePod({ ws, podName, version: VERSION_IGNORED, replicas, now, newUid: () => 'gen-1', ...extra });

describe('subsetMaxReplicas (maxReplicas int or %)', () => {
  it.each([
    [undefined, 10, -1],
    [3, 10, 3],
    ['50%', 5, 3],
    ['0%', 5, 0],
  ] as const)('%s of %s → %s', (max, replicas, want) => expect(subsetMaxReplicas(max, replicas)).toBe(want));
});

describe('placePod (pkg/util/workloadspread updateSubsetForPod)', () => {
  it('a single unlimited subset takes every pod and writes nothing', () => {
    expect(place(spread([{ name: 'a' }]))).toEqual({ subset: 'a' });
  });

  it('the first subset with room; the choice is recorded under a generated id for a pod without a name', () => {
    const got = place(spread([{ name: 'a', maxReplicas: 2 }, { name: 'b' }]));
    expect(got.subset).toBe('a');
    expect(got.uid).toBe('gen-1');
    expect(got.updated?.status?.versionedSubsetStatuses?.[VERSION_IGNORED]).toEqual([
      { name: 'a', replicas: 0, missingReplicas: 1, creatingPods: { 'gen-1': '2026-12-07T10:00:00Z' } },
      { name: 'b', replicas: 0, missingReplicas: -1 },
    ]);
  });

  it.each<[string, WorkloadSpread, string | undefined, boolean]>([
    [
      'a full subset is passed over',
      spread([{ name: 'a', maxReplicas: 2 }, { name: 'b' }], {
        versionedSubsetStatuses: { [VERSION_IGNORED]: [{ name: 'a', replicas: 2, missingReplicas: 0 }, { name: 'b', replicas: 0, missingReplicas: -1 }] },
      }),
      'b',
      false,
    ],
    [
      'an unschedulable subset is passed over (Adaptive)',
      spread([{ name: 'a', maxReplicas: 2 }, { name: 'b', maxReplicas: 2 }], {
        subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2, conditions: [{ type: 'Schedulable', status: 'False' }] }],
        versionedSubsetStatuses: { [VERSION_IGNORED]: [{ name: 'a', replicas: 0, missingReplicas: 2 }, { name: 'b', replicas: 0, missingReplicas: 2 }] },
      }),
      'b',
      true,
    ],
    [
      'no subset with room: the pod is created as it is',
      spread([{ name: 'a', maxReplicas: 1 }], {
        versionedSubsetStatuses: { [VERSION_IGNORED]: [{ name: 'a', replicas: 1, missingReplicas: 0 }] },
      }),
      undefined,
      false,
    ],
  ])('%s', (_name, ws, want, writes) => {
    const got = place(ws, 'pod-1');
    expect(got.subset).toBe(want);
    expect(!!got.updated).toBe(writes);
  });

  it('a pod already recorded keeps its subset without a second record', () => {
    const ws = spread([{ name: 'a', maxReplicas: 1 }, { name: 'b', maxReplicas: 1 }], {
      versionedSubsetStatuses: {
        [VERSION_IGNORED]: [
          { name: 'a', replicas: 0, missingReplicas: 1 },
          { name: 'b', replicas: 0, missingReplicas: 0, creatingPods: { 'pod-1': '2026-12-07T09:59:59Z' } },
        ],
      },
    });
    expect(place(ws, 'pod-1')).toEqual({ subset: 'b' });
  });

  it('a percentage is of the workload replicas, rounded up', () => {
    const got = place(spread([{ name: 'a', maxReplicas: '50%' }, { name: 'b', maxReplicas: '50%' }]), 'p', 5);
    expect(got.updated?.status?.versionedSubsetStatuses?.[VERSION_IGNORED]?.map((s) => s.missingReplicas)).toEqual([2, 3]);
  });

  it('StatefulSet pods go by ordinal, with no status write', () => {
    const ws = spread([{ name: 'a', maxReplicas: 2 }, { name: 'b', maxReplicas: 1 }, { name: 'c' }]);
    expect(['s-0', 's-1', 's-2', 's-3', 's-9'].map((n) => subsetForOrdinal(ws, n))).toEqual(['a', 'a', 'b', 'c', 'c']);
    expect(place(ws, 's-2', 6, { statefulSet: true })).toEqual({ subset: 'b' });
  });
});
