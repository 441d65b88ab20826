// Feature gates and claim retention on the shared local cluster: `ordinals.start` with the gate
// StatefulSetStartOrdinal on (REGATTA_FEATURE_GATES), and whenDeleted: Delete removing the claims with the set.
import { describe, expect, it } from 'vitest';
import { type Pod, ASTS, PVC, demo, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios({ env: { REGATTA_FEATURE_GATES: 'StatefulSetStartOrdinal=true' } });
const { namespace, pods, settled } = h;

const names = (list: Pod[]) => list.map((p) => p.metadata!.name!).sort();

describe('Advanced StatefulSet with StatefulSetStartOrdinal', () => {
  it('start ordinal (e2e): 0,1 → start 2 and replicas 3 → 2,3,4 → start 4 → 4,5,6 → replicas 2 → 4,5 → no ordinals → 0,1', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    await h.create(sts);
    await settled(ns, 'web', 2);
    expect(names(await pods(ns))).toEqual(['web-0', 'web-1']);
    const step = async (patch: Record<string, unknown>, want: string[]) => {
      await h.patch(ns, 'web', { spec: patch });
      await expect.poll(async () => names(await pods(ns)), { timeout: 60_000 }).toEqual(want);
      await settled(ns, 'web', want.length);
    };
    await step({ ordinals: { start: 2 }, replicas: 3 }, ['web-2', 'web-3', 'web-4']);
    await step({ ordinals: { start: 4 } }, ['web-4', 'web-5', 'web-6']);
    await step({ replicas: 2 }, ['web-4', 'web-5']);
    await step({ ordinals: null }, ['web-0', 'web-1']);
  });

  it('whenDeleted: Delete — the claims carry the set as owner and go with it', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    sts.spec['persistentVolumeClaimRetentionPolicy'] = { whenDeleted: 'Delete', whenScaled: 'Retain' };
    sts.spec['volumeClaimTemplates'] = [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ];
    const created = await h.create(sts);
    await settled(ns, 'web', 2);
    const claims = await h.claims(ns);
    expect(claims.map((c) => c.metadata!.name).sort()).toEqual(['data-web-0', 'data-web-1']);
    for (const c of claims)
      expect(c.metadata!.ownerReferences?.map((r) => r.uid)).toEqual([created.metadata!.uid]);
    await h.client.delete({ ...ASTS, namespace: ns, name: 'web' });
    await expect
      .poll(
        async () =>
          (await h.client.list({ ...PVC, namespace: ns })).items.filter((c) => !c.metadata?.deletionTimestamp)
            .length,
        {
          timeout: 60_000,
        },
      )
      .toBe(0);
  });

  it('the scale subresource (kubectl scale asts): replicas through /scale', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 1;
    await h.create(sts);
    await settled(ns, 'web', 1);
    await h.client.patch(
      { ...ASTS, namespace: ns, name: 'web' },
      { spec: { replicas: 3 } },
      { type: 'merge', subresource: 'scale' },
    );
    await settled(ns, 'web', 3);
    expect((await h.get(ns, 'web')).spec.replicas).toBe(3);
  });
});
