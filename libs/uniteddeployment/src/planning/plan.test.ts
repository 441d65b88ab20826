import { describe, expect, it } from 'vitest';
import type { UnitedDeployment } from '../types.js';
import type { SubsetView } from '../subset/read.js';
import { planSubsets, updateReason } from './plan.js';

const ud = (): UnitedDeployment => ({
  metadata: { name: 'u' },
  spec: {
    selector: { matchLabels: { a: 'b' } },
    topology: { subsets: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] },
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
