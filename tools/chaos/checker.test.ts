import { describe, expect, it } from 'vitest';
import { InvariantChecker, recoveryTimes, viewOf, type PodView } from './checker.js';

const pod = (uid: string, o: Partial<PodView> = {}): PodView => ({
  uid,
  name: `cs-${uid}`,
  available: true,
  terminating: false,
  revision: 'r1',
  identity: uid,
  image: 'old',
  group: '',
  node: '',
  ...o,
});
const pods = (n: number) => Array.from({ length: n }, (_, i) => pod(`p${i}`));

describe('viewOf', () => {
  it('reads readiness, deletion, revision, instance id and image from a pod', () => {
    const v = viewOf({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        uid: 'u',
        name: 'cs-a',
        labels: { 'controller-revision-hash': 'cs-1', 'apps.kruise.io/cloneset-instance-id': 'a' },
      },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    } as never);
    expect(v).toEqual({
      uid: 'u',
      name: 'cs-a',
      available: true,
      terminating: false,
      revision: 'cs-1',
      identity: 'a',
      image: 'nginx',
      group: '',
      node: '',
    });
  });

  it("reads a UnitedDeployment's pod: its subset as group, its UD revision, its node", () => {
    const v = viewOf(
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          uid: 'u',
          name: 'ud-a-x',
          labels: {
            'controller-revision-hash': 'cs-1',
            'apps.kruise.io/controller-revision-hash': 'ud-7',
            'apps.kruise.io/subset-name': 'a',
          },
        },
        spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
      } as never,
      {
        group: (p) => p.metadata?.labels?.['apps.kruise.io/subset-name'] ?? '',
        revisionLabel: 'apps.kruise.io/controller-revision-hash',
      },
    );
    expect(v).toMatchObject({ revision: 'ud-7', group: 'a', node: 'node-1', available: false });
  });
});

describe("InvariantChecker, groups (a UnitedDeployment's subsets)", () => {
  const grouped = (g: string, i: number, o: Partial<PodView> = {}) =>
    pod(`${g}${i}`, { group: g, node: `node-${g}`, ...o });
  const start = () => {
    const c = new InvariantChecker();
    c.list(
      [0, 1, 2, 3].flatMap((i) => [grouped('a', i), grouped('b', i)]),
      0,
    );
    c.begin(
      {
        minAvailable: 6,
        maxPods: 8,
        inPlace: { creates: 0, deletes: 0 },
        groups: {
          a: {
            minAvailable: 3,
            maxPods: 4,
            inPlace: { creates: 0, deletes: 0 },
            partition: { maxUpdated: 1 },
          },
          b: { minAvailable: 3, maxPods: 4, inPlace: { creates: 0, deletes: 0 } },
        },
        placement: { a: ['node-a'], b: ['node-b'] },
      },
      0,
    );
    return c;
  };
  const kinds = (c: InvariantChecker) => c.violations.map((v) => `${v.kind} ${v.detail}`);

  it.each([
    [
      'one unavailable in each subset: within both budgets',
      [grouped('a', 0, { available: false }), grouped('b', 0, { available: false })],
      [],
    ],
    [
      'two unavailable in one subset: its budget broken, though the whole keeps 6',
      [grouped('a', 0, { available: false }), grouped('a', 1, { available: false })],
      ['unavailable a: 2 pods available, at least 3 required'],
    ],
    [
      "a pod bound to another subset's node",
      [grouped('b', 4, { node: 'node-a' })],
      [
        'surge b: 5 pods, at most 4 allowed',
        'recreate b: 1 pods created, 0 allowed (in place)',
        'placement cs-b4 of b on node-a, not one of node-b',
        'recreate 1 pods created, 0 allowed (in place)',
        'surge 9 pods, at most 8 allowed',
      ].sort(),
    ],
    [
      'a pod of no subset',
      [pod('x', { group: '' })],
      [
        'placement cs-x belongs to no group (none)',
        'recreate 1 pods created, 0 allowed (in place)',
        'surge 9 pods, at most 8 allowed',
      ].sort(),
    ],
    [
      "two updated in subset a, whose partition allows 1; b's updates are its own",
      [
        grouped('a', 0, { revision: 'r2' }),
        grouped('a', 1, { revision: 'r2' }),
        grouped('b', 0, { revision: 'r2' }),
      ],
      ['partition a: 2 pods updated, the partition allows 1'],
    ],
    [
      'the same identity in two subsets is no duplicate; within one it is',
      [grouped('b', 0, { identity: 'a0' }), grouped('a', 1, { identity: 'a0' })],
      ['duplicate-identity a: identity a0 on cs-a0 and cs-a1'],
    ],
  ] as const)('%s', (_, changes, want) => {
    const c = start();
    changes.forEach((p, i) => c.upsert(p, i + 1));
    expect(kinds(c).sort()).toEqual(want);
  });
});

describe('InvariantChecker', () => {
  it('finds nothing in an in-place rollout that keeps its budget', () => {
    const c = new InvariantChecker();
    c.list(pods(4), 0);
    c.begin({ minAvailable: 3, maxPods: 4, inPlace: { creates: 0, deletes: 0 } }, 0);
    for (let i = 0; i < 4; i++) {
      c.upsert(pod(`p${i}`, { available: false, image: 'new', revision: 'r2' }), 10 * i + 1);
      c.upsert(pod(`p${i}`, { image: 'new', revision: 'r2' }), 10 * i + 5);
    }
    expect(c.violations).toEqual([]);
    expect(c.minAvailableSeen).toBe(3);
    expect(c.actions).toEqual([0, 0, 0, 0, 1, 11, 21, 31]);
  });

  it('reports more unavailable than maxUnavailable, once with a count', () => {
    const c = new InvariantChecker();
    c.list(pods(4), 0);
    c.begin({ minAvailable: 3, maxPods: 4 }, 0);
    c.upsert(pod('p0', { available: false }), 1);
    c.upsert(pod('p1', { available: false }), 2);
    c.upsert(pod('p2', { available: false }), 3);
    expect(c.violations).toEqual([
      { kind: 'unavailable', at: 2, count: 2, detail: '2 pods available, at least 3 required' },
    ]);
  });

  it('reports a recreate where in-place was expected, and a pod over replicas + maxSurge', () => {
    const c = new InvariantChecker();
    c.list(pods(2), 0);
    c.begin({ minAvailable: 1, maxPods: 2, inPlace: { creates: 0, deletes: 0 } }, 0);
    c.upsert(pod('p0', { terminating: true, available: false }), 1);
    c.upsert(pod('x', { available: false }), 2);
    c.upsert(pod('y', { available: false }), 3);
    c.remove('p0', 4);
    const kinds = c.violations.map((v) => v.kind);
    expect(kinds).toEqual(['recreate', 'surge']);
    expect(c.creates).toBe(2);
    expect(c.deletes).toBe(1);
  });

  it('allows the creates and deletes a scale change needs', () => {
    const c = new InvariantChecker();
    c.list(pods(3), 0);
    c.begin({ minAvailable: 2, maxPods: 4, inPlace: { creates: 1, deletes: 0 } }, 0);
    c.upsert(pod('x', { available: false }), 1);
    c.upsert(pod('x'), 2);
    expect(c.violations).toEqual([]);
  });

  it('reports two live pods with one instance id, not a terminating one and its replacement', () => {
    const c = new InvariantChecker();
    c.list([pod('a', { identity: 'i1' }), pod('b', { identity: 'i2' })], 0);
    c.begin({ minAvailable: 0, maxPods: 3 }, 0);
    c.upsert(pod('a', { identity: 'i1', terminating: true, available: false }), 1);
    c.upsert(pod('c', { identity: 'i1' }), 2);
    expect(c.violations).toEqual([]);
    c.upsert(pod('d', { identity: 'i2' }), 3);
    expect(c.violations.map((v) => v.kind)).toEqual(['duplicate-identity']);
  });

  it.each([
    // [bounds' partition, pods updated (by ordinal), violation]
    [{ maxUpdated: 2 }, [3, 2], undefined],
    [{ maxUpdated: 2 }, [3, 2, 1], '3 pods updated, the partition allows 2'],
    [{ oldBelow: 2 }, [3, 2], undefined],
    [{ oldBelow: 2 }, [3, 1], 'sts-1 updated below partition 2'],
    [{ oldBelow: 0 }, [0, 1, 2, 3], undefined],
  ] as const)('holds the partition %j with ordinals %j updated', (partition, updated, detail) => {
    const c = new InvariantChecker();
    const sts = (i: number, revision = 'r1') =>
      pod(`u${i}`, { name: `sts-${i}`, identity: String(i), revision });
    c.list(
      [0, 1, 2, 3].map((i) => sts(i)),
      0,
    );
    c.begin({ minAvailable: 0, maxPods: 4, partition, ordinalsBelow: 4 }, 0);
    for (const i of updated) c.upsert(sts(i, 'r2'), i + 1);
    expect(c.violations.map((v) => v.detail)).toEqual(detail ? [detail] : []);
  });

  it('allows two live pods on one node while a DaemonSet surges, not three', () => {
    const c = new InvariantChecker();
    c.list([pod('a', { identity: 'node-1' })], 0);
    c.begin({ minAvailable: 0, maxPods: 3, perIdentity: 2 }, 0);
    c.upsert(pod('b', { identity: 'node-1' }), 1);
    expect(c.violations).toEqual([]);
    c.upsert(pod('c', { identity: 'node-1' }), 2);
    expect(c.violations.map((v) => v.detail)).toEqual(['identity node-1 on cs-a and cs-b and cs-c']);
  });

  it('reports an ordinal out of range and two live pods with one ordinal', () => {
    const c = new InvariantChecker();
    c.list([pod('a', { identity: '0' }), pod('b', { identity: '1' })], 0);
    c.begin({ minAvailable: 0, maxPods: 3, ordinalsBelow: 2 }, 0);
    c.upsert(pod('c', { name: 'sts-2', identity: '2' }), 1);
    c.remove('c', 2);
    c.upsert(pod('d', { name: 'sts-1b', identity: '1' }), 3);
    expect(c.violations.map((v) => v.detail)).toEqual([
      'ordinal 2 of sts-2, below 2 expected',
      'identity 1 on cs-b and sts-1b',
    ]);
  });

  it('judges a relist as one state, and nothing outside begin … end', () => {
    const c = new InvariantChecker();
    c.list(pods(3), 0);
    c.begin({ minAvailable: 3, maxPods: 3 }, 0);
    c.list([pod('p0'), pod('p1'), pod('p2')], 5);
    expect(c.violations).toEqual([]);
    c.end();
    c.remove('p0', 6);
    expect(c.violations).toEqual([]);
  });
});

describe('recoveryTimes', () => {
  it('measures from the fault to the first action after the process is back, or to the end', () => {
    expect(
      recoveryTimes(
        [
          { at: 100, backAt: 150 },
          { at: 500, backAt: 600 },
          { at: 900, backAt: 950 },
        ],
        [120, 170, 650],
        990,
      ),
    ).toEqual([70, 150, 90]);
    expect(recoveryTimes([{ at: 100, backAt: 200 }], [], undefined)).toEqual([undefined]);
  });
});
