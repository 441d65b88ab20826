// UnitedDeployment end to end (docs/uniteddeployment.md; issue 13): the seed's example lands its pods 4/4/4 in the
// zones east, west and central, one CloneSet per subset; scaling re-splits the replicas; partitions per subset hold
// back each subset's update.
import { describe, expect, it } from 'vitest';
import { seedUnitedDeployment, unitedDeployment } from './testing/fixtures.js';
import { UD, imageOf, useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios();
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
/** Replicas per subset as `status.subsetStatuses` reports them. */
const subsetReplicas = async (ns: string, name: string) =>
  Object.fromEntries(((await h.unitedDeployment(ns, name)).status?.subsetStatuses ?? []).map((s) => [s.name, s.replicas]));
const partitionsOf = (ud: { status?: { subsetStatuses?: { name: string; partition: number }[] } }) =>
  Object.fromEntries((ud.status?.subsetStatuses ?? []).map((s) => [s.name, s.partition]));

describe('UnitedDeployment', () => {
  it.each([
    { form: 'as the seed writes it (nodeSelector shorthand, no selector)', openKruiseForm: false },
    { form: 'in OpenKruise form (nodeSelectorTerm, selector)', openKruiseForm: true },
  ])('the seed example $form: one CloneSet per subset, pods 4/4/4 over the zones', async ({ openKruiseForm }) => {
    const ns = await h.namespace();
    const created = await h.create(seedUnitedDeployment(ns, { openKruiseForm }));
    const subsets = (created.spec['topology'] as { subsets: Record<string, unknown>[] }).subsets;
    expect(subsets.map((s) => s['nodeSelectorTerm'])).toEqual(
      ['east', 'west', 'central'].map((zone) => ({
        matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }],
      })),
    );
    const ud = await h.settled(ns, 'global-service', 12);
    expect(await subsetReplicas(ns, 'global-service')).toEqual({ 'az-east': 4, 'az-west': 4, 'az-central': 4 });
    expect(ud.status?.currentRevision).toBe(ud.status?.updatedRevision);
    // the v1alpha1 view, as the seed's reader sees it
    const v1alpha1 = await h.client.get<typeof ud>({ ...UD, namespace: ns, name: 'global-service' });
    expect(v1alpha1.status?.subsetReplicas).toEqual({ 'az-east': 4, 'az-west': 4, 'az-central': 4 });
    expect(v1alpha1.status?.updateStatus?.updatedRevision).toBe(ud.status?.updatedRevision);
    expect(await h.podsPerZone(ns)).toEqual({ east: 4, west: 4, central: 4 });
    const sets = await h.workloads(ns, CS);
    expect(sets.map((s) => s.metadata?.labels?.['apps.kruise.io/subset-name']).sort()).toEqual([
      'az-central',
      'az-east',
      'az-west',
    ]);
    for (const s of sets) expect(s.metadata?.generateName).toMatch(/^global-service-az-(east|west|central)-$/);
    await expect
      .poll(async () => (await h.events(ns, 'SuccessfulUpdateSubset')).length)
      .toBeGreaterThanOrEqual(1);
  }, 300_000);

  it('scaling re-splits the replicas: the unspecified rest goes evenly, largest subsets first', async () => {
    const ns = await h.namespace();
    await h.create(
      unitedDeployment(ns, 'scale', {
        replicas: 3,
        subsets: [
          { name: 'a', zone: 'east' },
          { name: 'b', zone: 'west' },
          { name: 'c', zone: 'central' },
        ],
      }),
    );
    await h.settled(ns, 'scale', 3);
    expect(await subsetReplicas(ns, 'scale')).toEqual({ a: 1, b: 1, c: 1 });
    await h.patch(ns, 'scale', { spec: { replicas: 7 } });
    await h.settled(ns, 'scale', 7);
    const seven = (await subsetReplicas(ns, 'scale')) ?? {};
    expect(Object.values(seven).sort()).toEqual([2, 2, 3]);
    expect(await h.podsPerZone(ns)).toEqual({ east: seven['a'], west: seven['b'], central: seven['c'] });
    // subset c leaves the spec, a is fixed at 50 %
    const two = unitedDeployment(ns, 'scale', {
      replicas: 2,
      subsets: [
        { name: 'a', zone: 'east', replicas: '50%' },
        { name: 'b', zone: 'west' },
      ],
    });
    await h.patch(ns, 'scale', { spec: { replicas: 2, topology: two.spec['topology'] } });
    await h.settled(ns, 'scale', 2);
    expect(await subsetReplicas(ns, 'scale')).toEqual({ a: 1, b: 1 });
    expect(await h.workloads(ns, CS)).toHaveLength(2);
    expect(await h.podsPerZone(ns)).toEqual({ east: 1, west: 1 });
  }, 300_000);

  it('partitions per subset hold back each subset; removing them finishes the update', async () => {
    const ns = await h.namespace();
    await h.create(
      unitedDeployment(ns, 'parts', {
        replicas: 6,
        subsets: [
          { name: 'a', zone: 'east' },
          { name: 'b', zone: 'west' },
        ],
        extra: { updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 2, b: 1 } } } },
      }),
    );
    const before = await h.settled(ns, 'parts', 6);
    await h.patch(ns, 'parts', {
      spec: { template: { cloneSetTemplate: { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.29.0' }] } } } } } },
    });
    await expect
      .poll(async () => {
        const byZone: Record<string, string[]> = {};
        for (const p of await h.pods(ns)) {
          const subset = p.metadata?.labels?.['apps.kruise.io/subset-name'] ?? '';
          (byZone[subset] ??= []).push(imageOf(p) ?? '');
        }
        const count = (s: string, img: string) => (byZone[s] ?? []).filter((i) => i === img).length;
        return [count('a', 'nginx:1.28.0'), count('a', 'nginx:1.29.0'), count('b', 'nginx:1.28.0'), count('b', 'nginx:1.29.0')];
      }, { timeout: 120_000, interval: 1000 })
      .toEqual([2, 1, 1, 2]);
    const mid = await h.unitedDeployment(ns, 'parts');
    expect(partitionsOf(mid)).toEqual({ a: 2, b: 1 });
    expect(mid.status?.updatedRevision).not.toBe(before.status?.currentRevision);
    expect(mid.status?.currentRevision).toBe(before.status?.currentRevision);
    const sets = await h.workloads(ns, CS);
    expect(
      sets.map((s) => (s as { spec: { updateStrategy?: { partition?: number } } }).spec.updateStrategy?.partition).sort(),
    ).toEqual([1, 2]);

    await h.patch(ns, 'parts', { spec: { updateStrategy: { manualUpdate: { partitions: null } } } });
    const done = await h.settled(ns, 'parts', 6);
    expect((await h.pods(ns)).every((p) => imageOf(p) === 'nginx:1.29.0')).toBe(true);
    expect(done.status?.currentRevision).toBe(done.status?.updatedRevision);
    expect(partitionsOf(done)).toEqual({ a: 0, b: 0 });
  }, 300_000);
});
