/**
 * The allocation steps of spec §6.8's Adaptive e2e scenarios (test/e2e/apps/v1beta1/uniteddeployment.go), replayed
 * on the allocator alone: each step gives the subsets' state the scenario reaches (pods, ready pods, unschedulable)
 * and expects the next replicas it observes.
 */
import { describe, expect, it } from 'vitest';
import type { Subset } from '@regatta/api';
import { allocateReplicas } from './allocate.js';
import type { ExistingSubsets } from './existing-subset.js';
import { inOrder, specOf } from './test-helpers.js';

const adaptiveSpec = (replicas: number, subsets: Subset[]) =>
  specOf(replicas, subsets, { topology: { scheduleStrategy: { type: 'Adaptive' } } });

/** `[replicas, ready, unschedulable]` per subset. */
const state = (...subsets: [number, number, boolean][]): ExistingSubsets =>
  Object.fromEntries(
    subsets.map(([replicas, readyReplicas, unschedulable], i) => [
      `subset-${i}`,
      { replicas, readyReplicas, unschedulable },
    ]),
  );

describe('e2e "Adaptive with min" (subset-0 {min1,max2} cannot schedule, subset-1 unlimited)', () => {
  const subsets: Subset[] = [
    { name: 'subset-0', minReplicas: 1, maxReplicas: 2 },
    { name: 'subset-1', minReplicas: 0 },
  ];
  it.each<[string, number, ExistingSubsets, number[]]>([
    ['create 3: both schedulable at first', 3, {}, [2, 1]],
    ['subset-0 found unschedulable: keeps its min', 3, state([2, 0, true], [1, 1, false]), [1, 2]],
    ['scale 4', 4, state([1, 0, true], [2, 2, false]), [1, 3]],
    ['scale 3', 3, state([1, 0, true], [3, 3, false]), [1, 2]],
    ['nodes fixed: recovered, its pod runs', 3, state([1, 1, false], [2, 2, false]), [1, 2]],
    ['scale 5', 5, state([1, 1, false], [2, 2, false]), [2, 3]],
    ['scale 4', 4, state([2, 2, false], [3, 3, false]), [2, 2]],
    ['scale 3', 3, state([2, 2, false], [2, 2, false]), [2, 1]],
    ['scale 1', 1, state([2, 2, false], [1, 1, false]), [1, 0]],
  ])('%s → %j', (_step, replicas, existing, expected) => {
    expect(inOrder(allocateReplicas(adaptiveSpec(replicas, subsets), existing), 2)).toEqual(expected);
  });
});

describe('e2e "Adaptive basic" (subsets max2, max2 (cannot schedule), unlimited)', () => {
  const subsets: Subset[] = [
    { name: 'subset-0', minReplicas: 0, maxReplicas: 2 },
    { name: 'subset-1', minReplicas: 0, maxReplicas: 2 },
    { name: 'subset-2', minReplicas: 0 },
  ];
  it.each<[string, number, ExistingSubsets, number[]]>([
    ['create 3', 3, {}, [2, 1, 0]],
    ['subset-1 found unschedulable', 3, state([2, 2, false], [1, 0, true], [0, 0, false]), [2, 0, 1]],
    ['scale 5', 5, state([2, 2, false], [0, 0, true], [1, 1, false]), [2, 0, 3]],
    ['scale 4', 4, state([2, 2, false], [0, 0, true], [3, 3, false]), [2, 0, 2]],
    [
      'after the recovery window the running pods stay',
      4,
      state([2, 2, false], [0, 0, false], [2, 2, false]),
      [2, 0, 2],
    ],
    [
      'scale 5: the new pod goes to subset-1',
      5,
      state([2, 2, false], [0, 0, false], [2, 2, false]),
      [2, 1, 2],
    ],
    ['scale 4: the pending pod goes first', 4, state([2, 2, false], [1, 0, false], [2, 2, false]), [2, 0, 2]],
    ['scale 3', 3, state([2, 2, false], [0, 0, false], [2, 2, false]), [2, 0, 1]],
  ])('%s → %j', (_step, replicas, existing, expected) => {
    expect(inOrder(allocateReplicas(adaptiveSpec(replicas, subsets), existing), 3)).toEqual(expected);
  });
});
