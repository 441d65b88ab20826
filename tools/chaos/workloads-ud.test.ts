import { defaultUnitedDeployment, validateUnitedDeployment } from '@regatta/uniteddeployment';
import { describe, expect, it } from 'vitest';
import type { WorkloadObj } from './observer.js';
import type { RolloutPlan } from './schedule.js';
import { changeOps, shapeOf, WORKLOADS } from './workloads/index.js';
import {
  evenSplit,
  heldSplit,
  reachableSplits,
  subsetPlans,
  udBounds,
  udDone,
  udPartitions,
  udProblems,
} from './workloads/ud.js';

const plan = (o: Partial<RolloutPlan>): RolloutPlan => ({
  index: 0,
  change: 'in-place',
  replicas: 10,
  scaleTo: 10,
  maxUnavailable: '10%',
  maxSurge: 0,
  partitions: [],
  ...o,
});

/** One node per zone, as the node simulator spreads three nodes. */
const NODES = {
  'n-1': { 'topology.kubernetes.io/zone': 'zone-a' },
  'n-2': { 'topology.kubernetes.io/zone': 'zone-b' },
  'n-3': { 'topology.kubernetes.io/zone': 'zone-c' },
  'n-4': { 'topology.kubernetes.io/zone': 'zone-a' },
};

describe('evenSplit (no subset specified: quotient each, remainder to the fullest, ties to the later name)', () => {
  it.each([
    [10, {}, { a: 3, b: 3, c: 4 }],
    [2, {}, { a: 0, b: 1, c: 1 }],
    [0, {}, { a: 0, b: 0, c: 0 }],
    // 10 → 13: the remainder goes to c, which held the most
    [13, { a: 3, b: 3, c: 4 }, { a: 4, b: 4, c: 5 }],
    // 12 → 8 from an even 4/4/4: ties go to the later names
    [8, { a: 4, b: 4, c: 4 }, { a: 2, b: 3, c: 3 }],
    // a held the most: it keeps the extra pod
    [7, { a: 5, b: 1, c: 1 }, { a: 3, b: 2, c: 2 }],
  ] as const)('%i pods, existing %j → %j', (n, existing, want) => {
    expect(evenSplit(n, ['a', 'b', 'c'], existing)).toEqual(want);
  });
});

describe('udPartitions', () => {
  it.each([
    [10, 10, { a: 3, b: 3, c: 4 }],
    [10, 7, { a: 2, b: 2, c: 3 }],
    [10, 4, { a: 1, b: 1, c: 2 }],
    [10, 0, { a: 0, b: 0, c: 0 }],
  ] as const)('%i pods, partition %i → %j', (n, p, want) => {
    expect(udPartitions(n, p)).toEqual(want);
  });

  it('adds up to the partition and never exceeds a subset (every count 1 … 40)', () => {
    for (let n = 1; n <= 40; n++)
      for (let p = 0; p <= n; p++) {
        const parts = udPartitions(n, p);
        const replicas = evenSplit(n);
        expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(p);
        for (const s of Object.keys(parts)) expect(parts[s]).toBeLessThanOrEqual(replicas[s] ?? 0);
      }
  });
});

describe('subsetPlans and udBounds', () => {
  it('scales each subset as the allocation moves (10 → 13)', () => {
    const subs = subsetPlans(plan({ change: 'scale', scaleTo: 13 }));
    expect(Object.fromEntries(Object.entries(subs).map(([s, p]) => [s, [p.replicas, p.scaleTo]]))).toEqual({
      a: [3, 4],
      b: [3, 4],
      c: [4, 5],
    });
  });

  it.each([
    // 10 % of 3 and of 4, maxSurge 0: rounded up to 1 each (CloneSet)
    [
      plan({}),
      undefined,
      {
        minAvailable: 7,
        maxPods: 10,
        inPlace: { creates: 0, deletes: 0 },
        groups: {
          a: { minAvailable: 2, maxPods: 3, inPlace: { creates: 0, deletes: 0 } },
          b: { minAvailable: 2, maxPods: 3, inPlace: { creates: 0, deletes: 0 } },
          c: { minAvailable: 3, maxPods: 4, inPlace: { creates: 0, deletes: 0 } },
        },
      },
    ],
    // a recreate with maxSurge 1 per subset: 10 % rounded down (0), one surge pod each, no in-place allowance
    [
      plan({ change: 'recreate', maxSurge: 1 }),
      undefined,
      {
        minAvailable: 10,
        maxPods: 13,
        groups: {
          a: { minAvailable: 3, maxPods: 4 },
          b: { minAvailable: 3, maxPods: 4 },
          c: { minAvailable: 4, maxPods: 5 },
        },
      },
    ],
    // partition 7 of 10 (2/2/3): 1/1/1 may be updated
    [
      plan({ change: 'partition', partitions: [7, 4, 0] }),
      7,
      {
        partition: { maxUpdated: 3 },
        groups: {
          a: { partition: { maxUpdated: 1 } },
          b: { partition: { maxUpdated: 1 } },
          c: { partition: { maxUpdated: 1 } },
        },
      },
    ],
    // scale 10 → 13 from 3/3/4: a create allowed in each subset (no failed round can move the remainder to a or b)
    [
      plan({ change: 'scale', scaleTo: 13 }),
      undefined,
      {
        maxPods: 13,
        inPlace: { creates: 3, deletes: 0 },
        groups: {
          a: { maxPods: 4, inPlace: { creates: 1, deletes: 0 } },
          b: { maxPods: 4, inPlace: { creates: 1, deletes: 0 } },
          c: { maxPods: 5, inPlace: { creates: 1, deletes: 0 } },
        },
      },
    ],
  ] as const)('%j, partition %s', (p, partition, want) => {
    const b = udBounds(p, partition, NODES);
    expect(b).toMatchObject(want);
    expect(b.placement).toEqual({ a: ['n-1', 'n-4'], b: ['n-2'], c: ['n-3'] });
  });
});

const cloneSet = (subset: string, replicas: number, partition = 0) =>
  ({
    kind: 'CloneSet',
    metadata: { name: `r1-${subset}-x`, labels: { 'apps.kruise.io/subset-name': subset } },
    spec: { replicas, updateStrategy: { partition } },
  }) as unknown as WorkloadObj;
const held = (a: number, b: number, c: number) => [cloneSet('a', a), cloneSet('b', b), cloneSet('c', c)];

// run AR (docs/reliability-findings-1-16.md, Finding 13): the allocator puts the remainder where the subsets' replicas are, so a
// round cut half-way moves it; the checker judged such subsets against the split from nothing
describe('the split the program may hold or reach', () => {
  it.each([
    // held as created: the remainder where the allocator put it from nothing
    [73, held(24, 24, 25), { a: 24, b: 24, c: 25 }],
    // rollout 18: the first process created a and was killed, the next one gave a the remainder (a held the most)
    [73, held(25, 24, 24), { a: 25, b: 24, c: 24 }],
    // not a split the allocator keeps (or no CloneSets yet): the split from nothing
    [73, held(26, 24, 23), { a: 24, b: 24, c: 25 }],
    [73, [], { a: 24, b: 24, c: 25 }],
  ] as const)('%i pods held as %j → %j', (n, workloads, want) => {
    expect(heldSplit(n, workloads)).toEqual(want);
  });

  it("reaches, from a split, the allocator's split of it and those of every half-written round", () => {
    // rollout 19 (69 → 77): a and b written, c refused (429): the next round gives the remainder to a and b
    expect(reachableSplits(77, { a: 23, b: 23, c: 23 }).splits).toEqual(
      expect.arrayContaining([
        { a: 25, b: 26, c: 26 },
        { a: 26, b: 26, c: 25 },
        { a: 26, b: 25, c: 26 },
      ]),
    );
    // nothing half-written can change a split the allocator keeps
    expect(reachableSplits(73, { a: 25, b: 24, c: 24 }).splits).toEqual([{ a: 25, b: 24, c: 24 }]);
    // 10 → 13 from 3/3/4: c holds the most in every state, so it keeps the remainder
    expect(reachableSplits(13, { a: 3, b: 3, c: 4 }).splits).toEqual([{ a: 4, b: 4, c: 5 }]);
  });

  it('never passes through more replicas, or fewer, than the loosest split allows (every count 1 … 30)', () => {
    for (let n = 1; n <= 30; n++)
      for (let n2 = 1; n2 <= 30; n2++) {
        const before = evenSplit(n);
        const { splits, states } = reachableSplits(n2, before);
        const total = (f: (s: string, x: Record<string, number>) => number) => (x: Record<string, number>) =>
          ['a', 'b', 'c'].reduce((acc, s) => acc + f(s, x), 0);
        const most = Math.max(...splits.map(total((s, x) => Math.max(before[s] ?? 0, x[s] ?? 0))));
        const least = Math.min(...splits.map(total((s, x) => Math.min(before[s] ?? 0, x[s] ?? 0))));
        for (const state of states) {
          const sum = total((s, x) => x[s] ?? 0)(state);
          expect(sum).toBeLessThanOrEqual(most);
          expect(sum).toBeGreaterThanOrEqual(least);
        }
      }
  });

  it.each([
    [
      'rollout 18 (partition, 73 pods, 10 %, step 49 = 16/16/17): a held 25, c 24; a may update 9, c keep 21',
      plan({ change: 'partition', replicas: 73, scaleTo: 73, partitions: [49, 25, 0] }),
      49,
      held(25, 24, 24),
      {
        minAvailable: 64,
        maxPods: 73,
        partition: { maxUpdated: 24 },
        groups: {
          a: { minAvailable: 22, maxPods: 25, partition: { maxUpdated: 9 } },
          c: { minAvailable: 21, maxPods: 24, partition: { maxUpdated: 7 } },
        },
      },
    ],
    [
      'rollout 19 (scale 69 → 77, 50 %, in place): a may end with 26 (3 creates), the whole still 77 and 8 creates',
      plan({ change: 'scale', replicas: 69, scaleTo: 77, maxUnavailable: '50%' }),
      undefined,
      held(23, 23, 23),
      {
        maxPods: 77,
        inPlace: { creates: 8, deletes: 0 },
        groups: {
          a: { maxPods: 26, inPlace: { creates: 3, deletes: 0 } },
          b: { maxPods: 26, inPlace: { creates: 3, deletes: 0 } },
          c: { maxPods: 26, inPlace: { creates: 3, deletes: 0 } },
        },
      },
    ],
    [
      'rollout 13 (recreate, 64 = 21/21/22, maxSurge 0): no change of replicas, so b is held to 21 pods as before',
      plan({ change: 'recreate', replicas: 64, scaleTo: 64, maxUnavailable: '50%' }),
      undefined,
      held(21, 21, 22),
      { maxPods: 64, groups: { a: { maxPods: 21 }, b: { maxPods: 21 }, c: { maxPods: 22 } } },
    ],
  ] as const)('%s', (_, p, partition, workloads, want) => {
    expect(udBounds(p, partition, NODES, workloads)).toMatchObject(want);
  });
});

describe("R1's UnitedDeployment object and changes", () => {
  const ud = WORKLOADS.ud;

  it('is valid, already defaulted, three zone subsets of a CloneSet template; a partition plan starts held', () => {
    const o = ud.object(shapeOf(ud, plan({ change: 'partition', partitions: [7, 4, 0] }), 'ns', 'r1'));
    expect(validateUnitedDeployment(o)).toEqual([]);
    expect(defaultUnitedDeployment(o as never)).toEqual(o);
    expect(o).toMatchObject({
      spec: {
        replicas: 10,
        topology: {
          subsets: [
            {
              name: 'a',
              nodeSelectorTerm: {
                matchExpressions: [
                  { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a'] },
                ],
              },
            },
            { name: 'b' },
            { name: 'c' },
          ],
        },
        template: {
          cloneSetTemplate: {
            spec: { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: '10%' } },
          },
        },
        updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 3, b: 3, c: 4 } } },
      },
    });
    expect(ud.partitionPatch(4, plan({}))).toEqual({
      spec: { updateStrategy: { manualUpdate: { partitions: { a: 1, b: 1, c: 2 } } } },
    });
  });

  it('changes the pod template inside the workload template', () => {
    expect(
      changeOps(plan({ change: 'scale', scaleTo: 13 }), 'new', ud.podTemplatePath).map(
        (o) => (o as { path: string }).path,
      ),
    ).toEqual(['/spec/template/cloneSetTemplate/spec/template/spec/containers/0/image', '/spec/replicas']);
  });
});

const done = (
  o: Partial<Record<string, unknown>> = {},
  subsets = [
    { name: 'a', replicas: 3, readyReplicas: 3, partition: 0 },
    { name: 'b', replicas: 3, readyReplicas: 3, partition: 0 },
    { name: 'c', replicas: 4, readyReplicas: 4, partition: 0 },
  ],
) =>
  ({
    metadata: { generation: 2 },
    spec: { replicas: 10 },
    status: {
      observedGeneration: 2,
      replicas: 10,
      readyReplicas: 10,
      updatedReplicas: 10,
      updatedReadyReplicas: 10,
      currentRevision: 'r1-2',
      updatedRevision: 'r1-2',
      subsetStatuses: subsets,
      subsetReplicas: Object.fromEntries(subsets.map((s) => [s.name, s.replicas])),
      ...o,
    },
  }) as unknown as WorkloadObj;
const sets = held(3, 3, 4);

describe('udDone', () => {
  it.each([
    ['everything updated and ready', done(), true],
    ['an older generation observed', done({ observedGeneration: 1 }), false],
    ['the current revision behind', done({ currentRevision: 'r1-1' }), false],
    ['one pod not updated', done({ updatedReadyReplicas: 9 }), false],
    [
      'a subset not ready',
      done({}, [
        { name: 'a', replicas: 3, readyReplicas: 2, partition: 0 },
        { name: 'b', replicas: 3, readyReplicas: 3, partition: 0 },
        { name: 'c', replicas: 4, readyReplicas: 4, partition: 0 },
      ]),
      false,
    ],
  ] as const)('%s: %s', (_, o, want) => {
    expect(udDone(o, 2, 10)).toBe(want);
  });
});

describe('udProblems', () => {
  it.each([
    ['as allocated', done(), sets, []],
    ['a subset with two CloneSets', done(), [...sets, cloneSet('a', 3)], ['subset a: 2 CloneSets']],
    [
      // the allocator keeps it there (a round cut half-way moved it, Finding 13)
      'the remainder in another subset, the status the same',
      done({ subsetReplicas: { a: 4, b: 3, c: 3 } }, [
        { name: 'a', replicas: 4, readyReplicas: 4, partition: 0 },
        { name: 'b', replicas: 3, readyReplicas: 3, partition: 0 },
        { name: 'c', replicas: 3, readyReplicas: 3, partition: 0 },
      ]),
      held(4, 3, 3),
      [],
    ],
    [
      'not an even split',
      done(),
      held(5, 3, 2),
      [
        'subset a: CloneSet replicas 5, partition 0; the allocation says 4, partition 0',
        'subset a: status replicas 3 (subsetReplicas 3), partition 0; the allocation says 4, partition 0',
        'subset c: CloneSet replicas 2, partition 0; the allocation says 3, partition 0',
        'subset c: status replicas 4 (subsetReplicas 4), partition 0; the allocation says 3, partition 0',
      ],
    ],
    [
      "the status's split not the CloneSets'",
      done(),
      held(4, 3, 3),
      [
        'subset a: status replicas 3 (subsetReplicas 3), partition 0; the allocation says 4, partition 0',
        'subset c: status replicas 4 (subsetReplicas 4), partition 0; the allocation says 3, partition 0',
      ],
    ],
    [
      'a partition left on a subset',
      done(),
      [cloneSet('a', 3, 1), cloneSet('b', 3), cloneSet('c', 4)],
      ['subset a: CloneSet replicas 3, partition 1; the allocation says 3, partition 0'],
    ],
    [
      "the status's subset view behind",
      done({ subsetReplicas: { a: 3, b: 3, c: 3 } }),
      sets,
      ['subset c: status replicas 4 (subsetReplicas 3), partition 0; the allocation says 4, partition 0'],
    ],
  ] as const)('%s', (_, ud, others, want) => {
    expect(udProblems(ud, others, plan({}))).toEqual(want);
  });

  it('reads a scale against the new count (10 → 13 held as 4/4/5, spec.replicas not yet 13)', () => {
    expect(
      udProblems(
        done(),
        [cloneSet('a', 4), cloneSet('b', 4), cloneSet('c', 5)],
        plan({ change: 'scale', scaleTo: 13 }),
      ),
    ).toContain('spec.replicas 10, 13 set');
  });
});
