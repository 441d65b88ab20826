import { validateCloneSet, validateDaemonSet, validateStatefulSet } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { rolloutPlans, type RolloutPlan } from './schedule.js';
import { adsBounds, adsPlan, nodeOf } from './workloads/ads.js';
import { astsBounds, ordinalOf } from './workloads/asts.js';
import { cloneSetBounds } from './workloads/cloneset.js';
import { changeOps, shapeOf, WORKLOADS } from './workloads/index.js';

/** The parts of the objects the tests read. */
interface Obj {
  spec: {
    podManagementPolicy?: string;
    template: { spec: { readinessGates?: unknown[] } };
    updateStrategy: Record<string, unknown> & { rollingUpdate: Record<string, unknown> };
  };
}

const plan = (o: Partial<RolloutPlan>): RolloutPlan => ({
  index: 0,
  change: 'in-place',
  replicas: 30,
  scaleTo: 30,
  maxUnavailable: '10%',
  maxSurge: 0,
  partitions: [],
  ...o,
});

describe('cloneSetBounds', () => {
  it.each([
    // maxSurge 0: maxUnavailable rounds up (10 % of 35 → 4)
    [
      plan({ replicas: 35, scaleTo: 35 }),
      undefined,
      { minAvailable: 31, maxPods: 35, inPlace: { creates: 0, deletes: 0 } },
    ],
    // a surge: maxUnavailable rounds down (10 % of 35 → 3), maxSurge up (10 % → 4)
    [
      plan({ change: 'recreate', replicas: 35, scaleTo: 35, maxSurge: '10%' }),
      undefined,
      { minAvailable: 32, maxPods: 39 },
    ],
    // scale 30 → 40: the loosest of both counts, creates allowed
    [
      plan({ change: 'scale', scaleTo: 40, maxUnavailable: 5 }),
      undefined,
      { minAvailable: 25, maxPods: 40, inPlace: { creates: 10, deletes: 0 } },
    ],
    // a partition of 20 keeps 20 pods old: at most 10 updated
    [
      plan({ change: 'partition', partitions: [20, 10, 0] }),
      20,
      { minAvailable: 27, maxPods: 30, inPlace: { creates: 0, deletes: 0 }, partition: { maxUpdated: 10 } },
    ],
  ] as const)('%j, partition %s', (p, partition, want) => {
    expect(cloneSetBounds(p, partition)).toEqual(want);
  });
});

describe('astsBounds', () => {
  it.each([
    // maxUnavailable floors (10 % of 35 → 3), no surge, ordinals 0 … 34
    [
      plan({ replicas: 35, scaleTo: 35 }),
      undefined,
      { minAvailable: 32, maxPods: 35, ordinalsBelow: 35, inPlace: { creates: 0, deletes: 0 } },
    ],
    // at least 1 (5 % of 10 → 0 → 1); a recreate keeps no in-place allowance, and never surges
    [
      plan({ change: 'recreate', replicas: 10, scaleTo: 10, maxUnavailable: '5%', maxSurge: 1 }),
      undefined,
      { minAvailable: 9, maxPods: 10, ordinalsBelow: 10 },
    ],
    // scale 40 → 30: ordinals up to 39 until the condemned are gone, deletes allowed
    [
      plan({ change: 'scale', replicas: 40, scaleTo: 30, maxUnavailable: '20%' }),
      undefined,
      { minAvailable: 22, maxPods: 40, ordinalsBelow: 40, inPlace: { creates: 0, deletes: 10 } },
    ],
    // a partition of 20: ordinals 0 … 19 stay old
    [
      plan({ change: 'partition', partitions: [20, 10, 0] }),
      20,
      {
        minAvailable: 27,
        maxPods: 30,
        ordinalsBelow: 30,
        inPlace: { creates: 0, deletes: 0 },
        partition: { oldBelow: 20 },
      },
    ],
  ] as const)('%j, partition %s', (p, partition, want) => {
    expect(astsBounds(p, partition)).toEqual(want);
  });
});

describe('adsBounds', () => {
  it.each([
    // 10 nodes, rounded up: 10 % → 1; one pod per node
    [
      plan({ replicas: 10, scaleTo: 10 }),
      undefined,
      { minAvailable: 9, maxPods: 10, perIdentity: 1, inPlace: { creates: 0, deletes: 0 } },
    ],
    // maxUnavailable 0 % with no surge → 1
    [
      plan({ change: 'recreate', replicas: 10, scaleTo: 10, maxUnavailable: '0%' }),
      undefined,
      { minAvailable: 9, maxPods: 10, perIdentity: 1 },
    ],
    // a surge of 10 % → 1 node with an old and a new pod; maxUnavailable 20 % → 2
    [
      plan({ change: 'recreate', replicas: 10, scaleTo: 10, maxUnavailable: '20%', maxSurge: '10%' }),
      undefined,
      { minAvailable: 8, maxPods: 11, perIdentity: 2 },
    ],
    // a partition of 7 nodes: at most 3 updated
    [
      plan({ change: 'partition', replicas: 10, scaleTo: 10, partitions: [7, 4, 0] }),
      7,
      {
        minAvailable: 9,
        maxPods: 10,
        perIdentity: 1,
        inPlace: { creates: 0, deletes: 0 },
        partition: { maxUpdated: 3 },
      },
    ],
  ] as const)('%j, partition %s', (p, partition, want) => {
    expect(adsBounds(p, partition)).toEqual(want);
  });
});

describe('adsPlan', () => {
  it('sets maxUnavailable 0 where the plan surges (both set is refused), keeps it otherwise', () => {
    const surging = adsPlan(plan({ change: 'recreate', replicas: 10, maxUnavailable: 5, maxSurge: '10%' }));
    expect([surging.maxUnavailable, surging.maxSurge]).toEqual([0, '10%']);
    expect(adsBounds(surging, undefined)).toEqual({ minAvailable: 10, maxPods: 11, perIdentity: 2 });
    expect(adsPlan(plan({ change: 'recreate', replicas: 10, maxSurge: 0 })).maxUnavailable).toBe('10%');
  });
});

describe('the kinds', () => {
  // the programs refuse to act on an object their webhook would refuse (an InvalidSpec event): every object R1
  // sends must pass the kind's validation, at every partition it sets
  it.each([
    ['cloneset', validateCloneSet],
    ['asts', validateStatefulSet],
    ['ads', validateDaemonSet],
  ] as const)('every %s R1 plans is valid', (id, validate) => {
    const kind = WORKLOADS[id];
    for (const seed of [1, 2, 3, 4, 7])
      for (const p0 of rolloutPlans(seed, 12, [30, 100], {
        ...(kind.changes ? { changes: kind.changes } : {}),
        ...(kind.perNode ? { replicas: 10 } : {}),
      })) {
        const p = kind.plan?.(p0) ?? p0;
        const shape = shapeOf(kind, p, 'ns', 'r1');
        for (const partition of [shape.partition, ...p.partitions])
          expect(
            validate(kind.object({ ...shape, ...(partition !== undefined ? { partition } : {}) })),
          ).toEqual([]);
      }
  });

  it.each([
    ['r1-0', '0'],
    ['r1-17', '17'],
    ['r1-abcde', ''],
  ])('an Advanced StatefulSet pod %s has ordinal %j', (name, want) => {
    expect(ordinalOf({ metadata: { name } } as never)).toBe(want);
  });

  it('builds an Advanced StatefulSet as R1 rolls it out: Parallel, the update policy, maxUnavailable, partition, the in-place gate', () => {
    const p = plan({ change: 'partition', maxSurge: '10%', partitions: [20, 10, 0] });
    const shape = shapeOf(WORKLOADS.asts, p, 'ns', 'r1');
    expect(shape).toMatchObject({ maxSurge: 0, partition: 30, inPlace: true });
    const o = WORKLOADS.asts.object(shape) as unknown as Obj;
    expect(o.spec.podManagementPolicy).toBe('Parallel');
    expect(o.spec.updateStrategy.rollingUpdate).toMatchObject({
      podUpdatePolicy: 'InPlaceIfPossible',
      maxUnavailable: '10%',
      partition: 30,
    });
    expect(o.spec.template.spec.readinessGates).toEqual([{ conditionType: 'InPlaceUpdateReady' }]);
    expect(WORKLOADS.asts.partitionPatch(10, plan({}))).toEqual({
      spec: { updateStrategy: { rollingUpdate: { partition: 10 } } },
    });
    const recreate = WORKLOADS.asts.object(
      shapeOf(WORKLOADS.asts, plan({ change: 'recreate' }), 'ns', 'r1'),
    ) as unknown as Obj;
    expect(recreate.spec.updateStrategy.rollingUpdate.podUpdatePolicy).toBe('ReCreate');
  });

  it.each([
    [
      {
        metadata: { name: 'd-x' },
        spec: {
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-3'] }] },
                ],
              },
            },
          },
        },
      },
      'node-3',
    ],
    [{ metadata: { name: 'd-y' }, spec: { nodeName: 'node-4' } }, 'node-4'],
    [{ metadata: { name: 'd-z' }, spec: {} }, ''],
  ])('an Advanced DaemonSet pod is for its node (%#)', (p, want) => {
    expect(nodeOf(p as never)).toBe(want);
  });

  it('builds an Advanced DaemonSet: in place or Standard, maxUnavailable, maxSurge, partition', () => {
    const o = WORKLOADS.ads.object(
      shapeOf(WORKLOADS.ads, plan({ change: 'recreate', replicas: 10, maxSurge: 1 }), 'ns', 'r1'),
    ) as unknown as Obj;
    expect(o.spec.updateStrategy.rollingUpdate).toMatchObject({
      rollingUpdateType: 'Standard',
      maxSurge: 1,
      partition: 0,
    });
    const done = {
      metadata: { generation: 2 },
      status: {
        observedGeneration: 2,
        desiredNumberScheduled: 10,
        currentNumberScheduled: 10,
        updatedNumberScheduled: 10,
        numberReady: 10,
        numberAvailable: 10,
        numberMisscheduled: 0,
        updateRevision: 'h2',
      },
    };
    expect(WORKLOADS.ads.done(done as never, 2, 10)).toBe(true);
    expect(
      WORKLOADS.ads.done({ ...done, status: { ...done.status, numberAvailable: 9 } } as never, 2, 10),
    ).toBe(false);
    expect(
      WORKLOADS.ads.stepDone(
        { ...done, status: { ...done.status, updatedNumberScheduled: 3 } } as never,
        2,
        3,
        10,
      ),
    ).toBe(true);
    expect(WORKLOADS.ads.updateRevision(done as never)).toBe('h2');
  });

  it('builds a CloneSet with its surge and type, and patches its partition', () => {
    const o = WORKLOADS.cloneset.object(
      shapeOf(WORKLOADS.cloneset, plan({ change: 'recreate', maxSurge: 1 }), 'ns', 'r1'),
    ) as unknown as Obj;
    expect(o.spec.updateStrategy).toMatchObject({ type: 'ReCreate', maxSurge: 1, maxUnavailable: '10%' });
    expect(WORKLOADS.cloneset.partitionPatch(5, plan({}))).toEqual({
      spec: { updateStrategy: { partition: 5 } },
    });
  });

  it('changes the image in place, an env variable to recreate, the replicas with a scale change', () => {
    expect(
      changeOps(plan({ change: 'scale', scaleTo: 40 }), 'new').map((o) => (o as { path: string }).path),
    ).toEqual(['/spec/template/spec/containers/0/image', '/spec/replicas']);
    expect(changeOps(plan({ change: 'recreate', index: 3 }), 'new')).toEqual([
      {
        op: 'add',
        path: '/spec/template/spec/containers/0/env',
        value: [{ name: 'CHAOS_ROLLOUT', value: '3' }],
      },
    ]);
  });
});
