import { describe, expect, it } from 'vitest';
import type { SubsetView } from '../subset/read.js';
import type { UnitedDeployment } from '../types.js';
import { computeStatus, initSubsetStatuses, statusChanged, statusMergePatch, withUpdatedCondition } from './status.js';

const ud = (status?: UnitedDeployment['status']): UnitedDeployment => ({
  metadata: { name: 'u', generation: 3 },
  spec: { selector: { matchLabels: { app: 'u' } }, topology: { subsets: [{ name: 'a' }, { name: 'b' }] } },
  ...(status ? { status } : {}),
});
const view = (name: string, o: Partial<SubsetView>): SubsetView => ({
  name,
  workload: { metadata: { name: `u-${name}-x` }, spec: {} },
  pods: [],
  specReplicas: 2,
  partition: 0,
  revision: 'r2',
  patch: '',
  statusReplicas: 2,
  readyReplicas: 2,
  updatedReplicas: 2,
  updatedReadyReplicas: 2,
  ...o,
});
const now = new Date('2026-01-01T00:00:00Z');

describe('computeStatus', () => {
  const input = (u: UnitedDeployment, a: Partial<SubsetView>) => ({
    ud: u,
    existing: new Map([
      ['a', view('a', a)],
      ['b', view('b', {})],
    ]),
    subsetStatuses: initSubsetStatuses(u),
    conditions: [],
    nextReplicas: { a: 2, b: 2 },
    nextPartitions: { a: 1, b: 0 },
    currentRevision: 'r1',
    updateRevision: 'r2',
    collisionCount: 0,
    labelSelector: 'app=u',
  });

  it('sums the subsets; subset statuses carry the allocation and the partition; both views of the status', () => {
    const s = computeStatus(input(ud({ replicas: 0, updatedReplicas: 0, currentRevision: 'r1' }), { updatedReplicas: 1, updatedReadyReplicas: 1 }));
    expect(s).toMatchObject({
      observedGeneration: 3,
      replicas: 4,
      readyReplicas: 4,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      currentRevision: 'r1',
      updatedRevision: 'r2',
      subsetReplicas: { a: 2, b: 2 },
      updateStatus: { updatedRevision: 'r2', currentPartitions: { a: 1, b: 0 } },
      labelSelector: 'app=u',
    });
    expect(s.subsetStatuses).toEqual([
      { name: 'a', replicas: 2, readyReplicas: 2, partition: 1 },
      { name: 'b', replicas: 2, readyReplicas: 2, partition: 0 },
    ]);
  });

  it('currentRevision moves to the updated revision once every pod is updated and Ready', () => {
    expect(computeStatus(input(ud({ replicas: 0, updatedReplicas: 0, currentRevision: 'r1' }), {})).currentRevision).toBe('r2');
  });

  it('statusChanged ignores nothing it owns; the merge patch removes subsets that left', () => {
    const s = computeStatus(input(ud(), {}));
    expect(statusChanged(s, s)).toBe(false);
    expect(statusChanged(s, { ...s, replicas: 5 })).toBe(true);
    const old = { ...s, subsetReplicas: { a: 1, gone: 3 } };
    expect(statusMergePatch(old, s)['subsetReplicas']).toEqual({ gone: null, a: 2, b: 2 });
  });
});

describe('withUpdatedCondition', () => {
  it('False while updating, True when updated; the transition time only moves when the status flips', () => {
    const updating = withUpdatedCondition([], 'r1', 'r2', now);
    expect(updating).toEqual([
      expect.objectContaining({ type: 'UnitedDeploymentUpdated', status: 'False', reason: 'UnitedDeploymentRevisionUpdating', message: 'updating to revision r2' }),
    ]);
    expect(withUpdatedCondition(updating, 'r1', 'r3', new Date('2026-01-02T00:00:00Z'))).toEqual(updating);
    expect(withUpdatedCondition(updating, 'r2', 'r2', now)[0]).toMatchObject({ status: 'True', reason: 'UnitedDeploymentRevisionUpdated' });
  });
});
