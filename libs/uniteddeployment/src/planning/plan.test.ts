import { describe, expect, it } from 'vitest';
import type { UnitedDeployment } from '../types.js';
import type { SubsetView } from '../subset/read.js';
import { nextPartitions, planSubsets, updateReason } from './plan.js';

const ud = (partitions?: Record<string, number>, type?: string): UnitedDeployment => ({
  metadata: { name: 'u' },
  spec: {
    selector: { matchLabels: { a: 'b' } },
    topology: { subsets: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
    updateStrategy: { ...(type !== undefined ? { type } : {}), manualUpdate: partitions ? { partitions } : {} },
  },
});

const view = (o: Partial<SubsetView> = {}): SubsetView => ({
  name: 'a',
  workload: { metadata: { name: 'u-a-x' }, spec: {} },
  pods: [],
  specReplicas: 2,
  partition: 0,
  revision: 'r1',
  patch: '',
  statusReplicas: 2,
  readyReplicas: 2,
  updatedReplicas: 2,
  updatedReadyReplicas: 2,
  ...o,
});
const target = { revision: 'r1', replicas: 2, partition: 0, patch: '' };

describe('nextPartitions', () => {
  it('manual partitions capped at the next replicas; absent ones are 0', () => {
    expect(nextPartitions(ud({ a: 4, b: 3 }), { a: 5, b: 1, c: 2 })).toEqual({ a: 4, b: 1, c: 0 });
  });
  it('no partitions unless the type is Manual (or empty)', () => {
    expect(nextPartitions(ud({ a: 4 }, 'Other'), { a: 5, b: 5, c: 0 })).toEqual({ a: 0, b: 0, c: 0 });
  });
});

describe('updateReason', () => {
  it.each([
    [{}, target, undefined],
    [{ revision: 'r0' }, target, 'revision'],
    [{ specReplicas: 3 }, target, 'replicas'],
    [{ partition: 1 }, target, 'partition'],
    [{}, { ...target, patch: '{"x":1}' }, 'patch'],
    [{ updatedReplicas: 1 }, target, 'rolling'],
  ])('%j vs %j → %s', (v, t, reason) => {
    expect(updateReason(view(v), t)).toBe(reason);
  });
});

describe('planSubsets', () => {
  it('creates missing subsets in spec order, removes those left, updates the changed ones by name', () => {
    const existing = new Map([
      ['b', view({ name: 'b', specReplicas: 1 })],
      ['old', view({ name: 'old', workload: { metadata: { name: 'u-old-y' }, spec: {} } })],
    ]);
    expect(planSubsets(ud(), existing, () => target)).toEqual({
      create: ['a', 'c'],
      remove: ['u-old-y'],
      update: [{ name: 'b', reason: 'replicas' }],
    });
  });
});
