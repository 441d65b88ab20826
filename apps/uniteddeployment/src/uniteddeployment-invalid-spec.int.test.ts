// A UnitedDeployment the webhook would refuse, stored with the webhooks off (docs/uniteddeployment.md
// "Validation"; issue 18's R2, second half): the reconciler does not act on it (no subset workload, no revision, no
// status) and says why with an InvalidSpec Warning naming the field; a valid one next to it is reconciled.
import { describe, expect, it } from 'vitest';
import { unitedDeployment } from './testing/fixtures.js';
import { useUnitedDeploymentScenarios } from './testing/scenario-harness.js';

const h = useUnitedDeploymentScenarios({ webhooks: false });
const CLONESET = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const REVISION = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;

describe('UnitedDeployment that fails validation, stored without the webhooks', () => {
  it('is refused with an InvalidSpec event naming the field; nothing is created for it', async () => {
    const ns = await h.namespace();
    const subsets = [
      { name: 'east', zone: 'east' },
      { name: 'west', zone: 'west' },
    ];
    const bad = unitedDeployment(ns, 'bad', { replicas: 2, subsets });
    // two subsets of one name: the webhook says `duplicated subset name`
    (bad.spec['topology'] as { subsets: { name: string }[] }).subsets[1]!.name = 'east';
    await h.create(bad);
    await h.create(unitedDeployment(ns, 'good', { replicas: 2, subsets }));

    // the valid one is acted on: its two subset CloneSets appear
    await expect
      .poll(
        async () =>
          (await h.workloads(ns, CLONESET)).filter((c) => c.metadata?.name?.startsWith('good-')).length,
        {
          timeout: 120_000,
        },
      )
      .toBe(2);
    await expect
      .poll(
        async () =>
          (await h.events(ns, 'InvalidSpec')).map((e) => `${e.involvedObject.name} ${e.type}: ${e.message}`),
        {
          timeout: 60_000,
        },
      )
      .toEqual([
        expect.stringMatching(
          /^bad Warning: not acting on this UnitedDeployment until it is fixed: spec\.topology\.subsets\[1\]\.name: Invalid value: "east": duplicated subset name east/,
        ),
      ]);
    const owned = async (gvk: { apiVersion: string; kind: string }) =>
      (await h.client.list({ ...gvk, namespace: ns })).items.filter((x) =>
        (x.metadata?.ownerReferences ?? []).some((r) => r.name === 'bad' && r.kind === 'UnitedDeployment'),
      );
    expect(await owned(CLONESET)).toEqual([]);
    expect(await owned(REVISION)).toEqual([]);
    expect((await h.unitedDeployment(ns, 'bad')).status?.observedGeneration).toBeUndefined();

    // fixed: acted on
    await h.patch(ns, 'bad', {
      spec: { topology: unitedDeployment(ns, 'bad', { replicas: 2, subsets }).spec['topology'] },
    });
    await expect.poll(async () => (await owned(CLONESET)).length, { timeout: 120_000 }).toBe(2);
  }, 300_000);
});
