import { validateSidecarSet, type Pod } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { InvariantChecker, type PodView } from './checker.js';
import {
  firstPartition,
  imageOps,
  notAtImage,
  sidecarBounds,
  sidecarPlans,
  sidecarPodView,
  sidecarRevision,
  sidecarSetObject,
  sidecarStepDone,
  type SidecarPlan,
} from './sidecar-rollouts.js';

const plan = (o: Partial<SidecarPlan>): SidecarPlan => ({
  index: 0,
  change: 'in-place',
  replicas: 10,
  scaleTo: 10,
  maxUnavailable: '10%',
  maxSurge: 0,
  partitions: [],
  sidecars: 1,
  canary: 0,
  ...o,
});

const HASH = (set: string, hash: string) => JSON.stringify({ [set]: { hash, sidecarSetName: set } });

/** A pod of the CloneSet, its app container and `sidecars` (name → spec image, status image, ready). */
function pod(o: {
  sidecars?: Record<string, [string, string, boolean]>;
  ready?: boolean;
  hash?: string;
}): Pod {
  const sc = Object.entries(o.sidecars ?? {});
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      uid: 'u1',
      name: 'r1-a',
      labels: { 'apps.kruise.io/cloneset-instance-id': 'a' },
      annotations: o.hash === undefined ? {} : { 'kruise.io/sidecarset-hash': o.hash },
    },
    spec: {
      containers: [{ name: 'app', image: 'app:1' }, ...sc.map(([name, [image]]) => ({ name, image }))],
    },
    status: {
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
      containerStatuses: sc.map(([name, [, image, ready]]) => ({ name, image, ready })),
    },
  } as unknown as Pod;
}

describe('sidecarPlans', () => {
  it('takes every change in turn, scales only up, never surges, gives each change one and two sidecars', () => {
    const ps = sidecarPlans(1, 12, [10, 30]);
    expect(ps.map((p) => p.change)).toEqual(
      Array.from({ length: 3 }, () => ['in-place', 'partition', 'scale', 'canary']).flat(),
    );
    for (const p of ps) {
      expect(p.scaleTo).toBeGreaterThanOrEqual(p.replicas);
      expect(p.maxSurge).toBe(0);
      if (p.change !== 'scale') expect(p.scaleTo).toBe(p.replicas);
    }
    expect(ps.filter((p) => p.change === 'scale').every((p) => p.scaleTo > p.replicas)).toBe(true);
    expect(ps.map((p) => p.sidecars)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 1, 1]);
    for (const p of ps) expect(p.canary).toBe(p.change === 'canary' ? Math.ceil(p.replicas / 4) : 0);
    expect(sidecarPlans(1, 12, [10, 30])).toEqual(ps);
  });
});

describe('sidecarBounds', () => {
  it.each([
    // 10 % of 10 rounds up to 1
    [plan({}), undefined, { minAvailable: 9, maxPods: 10, inPlace: { creates: 0, deletes: 0 } }],
    // 10 % of 15 → 2
    [
      plan({ replicas: 15, scaleTo: 15 }),
      undefined,
      { minAvailable: 13, maxPods: 15, inPlace: { creates: 0, deletes: 0 } },
    ],
    // scale 10 → 14, maxUnavailable 50 %: the loosest (7), the scale-up's 4 creates allowed
    [
      plan({ change: 'scale', scaleTo: 14, maxUnavailable: '50%' }),
      undefined,
      { minAvailable: 3, maxPods: 14, inPlace: { creates: 4, deletes: 0 } },
    ],
    // partition 7 keeps 7 of 10 at the old sidecar revision
    [
      plan({ change: 'partition', maxUnavailable: 2 }),
      7,
      { minAvailable: 8, maxPods: 10, inPlace: { creates: 0, deletes: 0 }, partition: { maxUpdated: 3 } },
    ],
  ] as const)('%j, partition %s', (p, partition, want) => {
    expect(sidecarBounds(p, partition)).toEqual(want);
  });
});

describe('sidecarRevision', () => {
  it.each([
    [HASH('s', 'h1'), 'h1'],
    [HASH('other', 'h1'), ''],
    ['{not json', ''],
    [undefined, ''],
    [JSON.stringify({ s: { hash: 3 } }), ''],
  ])('%s → %j', (raw, want) => {
    expect(sidecarRevision(pod(raw === undefined ? {} : { hash: raw }), 's')).toBe(want);
  });
});

describe('sidecarPodView', () => {
  const view = sidecarPodView('s', ['sidecar-0', 'sidecar-1']);
  it.each([
    [
      'both sidecars settled',
      { 'sidecar-0': ['n:2', 'n:2', true], 'sidecar-1': ['n:2', 'n:2', true] },
      true,
      true,
      undefined,
    ],
    // spec changed, the container not restarted yet: being upgraded
    [
      'a sidecar being upgraded',
      { 'sidecar-0': ['n:2', 'n:1', true], 'sidecar-1': ['n:2', 'n:2', true] },
      true,
      false,
      undefined,
    ],
    [
      'a sidecar not ready',
      { 'sidecar-0': ['n:2', 'n:2', false], 'sidecar-1': ['n:2', 'n:2', true] },
      true,
      false,
      undefined,
    ],
    [
      'the pod not Ready',
      { 'sidecar-0': ['n:2', 'n:2', true], 'sidecar-1': ['n:2', 'n:2', true] },
      false,
      false,
      undefined,
    ],
    ['a sidecar missing', { 'sidecar-0': ['n:2', 'n:2', true] }, true, false, ['sidecar-1']],
  ] as const)('%s', (_, sidecars, ready, available, lacks) => {
    const v = view(pod({ sidecars: sidecars as never, ready, hash: HASH('s', 'h2') }));
    expect(v.available).toBe(available);
    expect(v.lacks).toEqual(lacks);
    expect(v.revision).toBe('h2');
    expect(v.identity).toBe('a');
  });
  it('reads the sidecars images in order as the image', () => {
    const v = view(pod({ sidecars: { 'sidecar-1': ['b', 'b', true], 'sidecar-0': ['a', 'a', true] } }));
    expect(v.image).toBe('a,b');
  });
});

describe('the checker with sidecar views', () => {
  it('flags a pod without its sidecars, even outside a checked phase', () => {
    const c = new InvariantChecker();
    const view = sidecarPodView('s', ['sidecar-0']);
    c.upsert(view(pod({})), 1);
    expect(c.violations.map((v) => v.kind)).toEqual(['no-sidecar']);
  });
});

describe('notAtImage', () => {
  const v = (name: string, image: string, available = true) => ({ name, image, available }) as PodView;
  it('names the pods not running every sidecar at the image, or not available', () => {
    expect(notAtImage([v('a', 'n,n'), v('b', 'o,n'), v('c', 'n,n', false), v('d', 'n')], 2, 'n')).toEqual([
      'b',
      'c',
      'd',
    ]);
  });
});

describe('sidecarSetObject', () => {
  it.each([
    plan({}),
    plan({ change: 'partition', sidecars: 2, maxUnavailable: 3 }),
    plan({ change: 'canary', canary: 3 }),
  ])('is a valid SidecarSet (%j)', (p) => {
    const o = sidecarSetObject(p, 'chaos-r1-0', 'r1-scs-0', 'nginx:1.27.3');
    expect(validateSidecarSet(o as never)).toEqual([]);
    const spec = (o as unknown as { spec: { containers: unknown[]; updateStrategy: { partition?: number } } })
      .spec;
    expect(spec.containers).toHaveLength(p.sidecars);
    expect(spec.updateStrategy.partition).toBe(p.change === 'partition' ? p.replicas : undefined);
    expect(imageOps(p, 'x')).toHaveLength(p.sidecars + (p.change === 'canary' ? 1 : 0));
  });
});

describe('firstPartition', () => {
  it.each([
    [plan({}), undefined],
    [plan({ change: 'partition' }), 10],
    // a canary of 3: the other 7 kept
    [plan({ change: 'canary', canary: 3 }), 7],
  ] as const)('%j → %s', (p, want) => {
    expect(firstPartition(p)).toBe(want);
  });
});

describe('sidecarStepDone', () => {
  const set = (status: Record<string, number>) => ({ apiVersion: 'v', kind: 'SidecarSet', status }) as never;
  it.each([
    [{ observedGeneration: 2, matchedPods: 10, updatedPods: 4, updatedReadyPods: 4 }, true],
    [{ observedGeneration: 1, matchedPods: 10, updatedPods: 4, updatedReadyPods: 4 }, false],
    [{ observedGeneration: 2, matchedPods: 9, updatedPods: 4, updatedReadyPods: 4 }, false],
    [{ observedGeneration: 2, matchedPods: 10, updatedPods: 4, updatedReadyPods: 3 }, false],
  ])('%j → %s', (status, want) => {
    expect(sidecarStepDone(set(status), 2, 4, 10)).toBe(want);
  });
});
