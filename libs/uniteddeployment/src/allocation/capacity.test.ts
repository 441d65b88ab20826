import { describe, expect, it } from 'vitest';
import { ReplicaAllocationError } from '../errors.js';
import { allocateReplicas, allocatorKind } from './allocate.js';
import type { ExistingSubsets } from './existing-subset.js';
import { inOrder, specOf, subsetsWithBounds } from './test-helpers.js';

const N = -1; // unset

describe('min/max allocator (spec §6.7 TestCapacityAllocator)', () => {
  it.each([
    [10, [2, 2, 2, 2, 2], [5, 5, 5, 5, N], [2, 2, 2, 2, 2]],
    [14, [2, 2, 2, 2, 2], [5, 5, 5, 5, N], [5, 3, 2, 2, 2]],
    [5, [2, 2, 2, 2, 2], [5, 5, 5, 5, N], [2, 2, 1, 0, 0]],
  ])('%i replicas, min %j, max %j → %j', (replicas, min, max, expected) => {
    const spec = specOf(replicas, subsetsWithBounds(min, max, 5));
    expect(allocatorKind(spec)).toBe('minMax');
    expect(inOrder(allocateReplicas(spec), 5)).toEqual(expected);
  });

  it('the type docs example: 5 replicas, a{min2,max4}, b{min2} → a=3, b=2', () => {
    const spec = specOf(5, [
      { name: 'a', minReplicas: 2, maxReplicas: 4 },
      { name: 'b', minReplicas: 2 },
    ]);
    expect(allocateReplicas(spec)).toEqual({ a: 3, b: 2 });
  });

  // e2e "Elastic allocator" (spec §6.8): {min1,max2},{min1,max2},{min1}
  it.each([
    [3, [1, 1, 1]],
    [7, [2, 2, 3]],
    [1, [1, 0, 0]],
  ])('elastic: %i replicas → %j', (replicas, expected) => {
    const spec = specOf(replicas, subsetsWithBounds([1, 1, 1], [2, 2, N], 3));
    expect(inOrder(allocateReplicas(spec), 3)).toEqual(expected);
  });

  it('percentages of spec.replicas as bounds', () => {
    const spec = specOf(10, [
      { name: 'subset-0', minReplicas: '20%', maxReplicas: '50%' },
      { name: 'subset-1', minReplicas: '10%' },
    ]);
    expect(inOrder(allocateReplicas(spec), 2)).toEqual([5, 5]);
  });

  it('rejects min above max', () => {
    const spec = specOf(4, subsetsWithBounds([3, 0], [2, N], 2));
    expect(() => allocateReplicas(spec)).toThrow(
      new ReplicaAllocationError('subset[0].maxReplicas(2) must be more than or equal to minReplicas(3)'),
    );
  });
});

/**
 * Spec §6.7 TestDefaultAdaptiveAllocation: `pods` current pods, `pending` ≠ 0 marks the subset unschedulable (-1:
 * unschedulable without pending pods); ready = pods − pending.
 */
function adaptive(
  replicas: number,
  pods: number[],
  min: number[],
  max: number[],
  pending: number[],
): number[] {
  const n = pods.length;
  const spec = specOf(replicas, subsetsWithBounds(min, max, n), {
    topology: { scheduleStrategy: { type: 'Adaptive' } },
  });
  const existing: ExistingSubsets = Object.fromEntries(
    pods.map((p, i) => [
      `subset-${i}`,
      {
        replicas: p,
        readyReplicas: p - Math.max(0, pending[i] ?? 0),
        unschedulable: (pending[i] ?? 0) !== 0,
      },
    ]),
  );
  expect(allocatorKind(spec)).toBe('adaptive');
  return inOrder(allocateReplicas(spec, existing), n);
}

describe('default Adaptive allocator (spec §6.7 TestDefaultAdaptiveAllocation)', () => {
  it.each([
    [10, [5, 5], [3, N], [5, N], [5, 0], [3, 7]],
    [10, [5, 5], [3, N], [5, N], [4, 0], [3, 7]],
    [10, [5, 5], [3, N], [5, N], [3, 0], [3, 7]],
    [10, [5, 5], [3, N], [5, N], [2, 0], [3, 7]],
    [10, [5, 5], [3, N], [5, N], [0, 0], [5, 5]],
    [4, [1, 1], [1, N], [2, N], [0, 0], [2, 2]],
    [3, [2, 2], [1, N], [2, N], [0, 0], [2, 1]],
    [1, [2, 1], [1, N], [2, N], [0, 0], [1, 0]],
    [3, [1, 3], [1, N], [2, N], [1, 0], [1, 2]],
    [3, [1, 3], [0, N], [2, N], [1, 0], [0, 3]],
    [4, [0, 0, 0, 0], [0, 0, 0, 0], [2, N, N, N], [0, 0, 0, 0], [2, 2, 0, 0]],
    [4, [2, 2, 0, 0], [0, 0, 0, 0], [2, N, N, N], [0, 2, 0, 0], [2, 0, 2, 0]],
    [4, [2, 0, 2, 0], [0, 0, 0, 0], [2, N, N, N], [0, -1, 2, 0], [2, 0, 0, 2]],
    [8, [2, 0, 0, 2], [0, 0, 0, 0], [2, N, N, N], [0, -1, -1, 0], [2, 0, 0, 6]],
    [8, [2, 0, 0, 2], [0, 0, 0, 0], [2, N, N, N], [0, 0, 0, 0], [2, 4, 0, 2]],
    [4, [2, 0, 0, 6], [0, 0, 0, 0], [N, N, N, N], [0, 0, 0, 0], [2, 0, 0, 2]],
    // the same after recovery
    [4, [2, 0, 0, 6], [0, 0, 0, 0], [N, N, N, N], [0, 0, 0, 0], [2, 0, 0, 2]],
  ])(
    '%i replicas, pods %j, min %j, max %j, pending %j → %j',
    (replicas, pods, min, max, pending, expected) => {
      expect(adaptive(replicas, pods, min, max, pending)).toEqual(expected);
    },
  );

  it('a subset without a workload yet counts as schedulable with no ready pods', () => {
    const spec = specOf(3, subsetsWithBounds([0, 0], [2, N], 2), {
      topology: { scheduleStrategy: { type: 'Adaptive' } },
    });
    expect(inOrder(allocateReplicas(spec, {}), 2)).toEqual([2, 1]);
  });
});
