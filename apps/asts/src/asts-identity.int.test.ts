// The Advanced StatefulSet's identity and storage fixes of existing pods (OpenKruise `UpdateStatefulPod`), with the
// program caching its pods projected to ASTS_POD_FIELDS (docs/adr/0060-pod-projection.md): a pod whose identity
// label was taken away gets it back by a patch that leaves every other field as stored; a pod whose storage no longer
// matches the set (a claim template added) gets its missing claim, but its volumes cannot change — the API server
// refuses any change of an existing pod's spec.volumes — so the fix fails with FailedUpdate, as upstream's Update does.
import { describe, expect, it } from 'vitest';
import { POD, type Pod, demo, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios();
const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
const claimTemplate = (name: string) => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});

/** A set of two pods, each with a claim `data` and a volume of the template (`scratch`, an emptyDir with a limit). */
async function twoPods(ns: string): Promise<Pod[]> {
  const sts = demo(ns, 'web');
  sts.spec.replicas = 2;
  sts.spec['volumeClaimTemplates'] = [claimTemplate('data')];
  const template = sts.spec['template'] as { spec: { volumes?: unknown[] } };
  template.spec.volumes = [{ name: 'scratch', emptyDir: { sizeLimit: '1Mi' } }];
  await h.create(sts);
  await h.settled(ns, 'web', 2);
  return (await h.pods(ns)).sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1));
}

const pod = (ns: string, name: string) => h.client.get<Pod>({ ...POD, namespace: ns, name });
const volumes = (p: Pod) => (p.spec as { volumes?: { name: string }[] }).volumes ?? [];

describe('Advanced StatefulSet identity and storage of existing pods', () => {
  it('a pod-name label taken away comes back by a patch; the pod, its volumes and its spec are kept', async () => {
    const ns = await h.namespace();
    const [before] = await twoPods(ns);
    // the pod's volumes as stored: the claim, and the template's with a limit the cache leaves out
    expect(volumes(before!)).toEqual([
      { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
      { name: 'scratch', emptyDir: { sizeLimit: '1Mi' } },
    ]);
    await h.client.patch(
      { ...POD, namespace: ns, name: 'web-0' },
      { metadata: { labels: { [POD_NAME_LABEL]: null } } },
      { type: 'merge' },
    );
    await expect
      .poll(async () => (await pod(ns, 'web-0')).metadata?.labels?.[POD_NAME_LABEL], { timeout: 30_000 })
      .toBe('web-0');
    const after = await pod(ns, 'web-0');
    expect(after.metadata!.uid).toBe(before!.metadata!.uid);
    expect(after.spec).toEqual(before!.spec);
    expect((await h.events(ns, 'SuccessfulUpdate')).map((e) => e.message)).toContain(
      'update Pod web-0 in StatefulSet web successful',
    );
  });

  it('a claim template added: the missing claim is made; the volumes of the pods cannot change (FailedUpdate)', async () => {
    const ns = await h.namespace();
    const before = await twoPods(ns);
    await h.patch(ns, 'web', {
      spec: { volumeClaimTemplates: [claimTemplate('data'), claimTemplate('logs')] },
    });
    await expect
      .poll(async () => (await h.claims(ns)).map((c) => c.metadata!.name!).sort(), { timeout: 30_000 })
      .toEqual(expect.arrayContaining(['logs-web-0']));
    await expect
      .poll(async () => (await h.events(ns, 'FailedUpdate')).map((e) => e.message ?? ''), { timeout: 30_000 })
      .toContainEqual(
        expect.stringMatching(
          /^update Pod web-0 in StatefulSet web failed error: .*pod updates may not change fields/,
        ),
      );
    for (const b of before) {
      const now = await pod(ns, b.metadata!.name!);
      expect(now.metadata!.uid).toBe(b.metadata!.uid);
      expect(now.spec).toEqual(b.spec);
    }
    expect((await h.claims(ns)).map((c) => c.metadata!.name!)).toEqual(
      expect.arrayContaining(['data-web-0', 'data-web-1', 'logs-web-0']),
    );
    // the round failed at the pod: its status says so, as upstream's does
    await expect
      .poll(
        async () =>
          (
            (await h.get(ns, 'web')).status as { conditions?: { type: string }[] } | undefined
          )?.conditions?.map((c) => c.type),
        { timeout: 30_000 },
      )
      .toContain('FailedUpdatePod');
  });
});
