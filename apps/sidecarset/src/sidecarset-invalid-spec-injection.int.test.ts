// The pod webhook with SidecarSets the SidecarSet webhook would refuse, stored while it was off (docs/sidecarset.md;
// issue 18's R2, second half, docs/reliability.md). A SidecarSet that fails its own rules is not injected: a pod it
// selects gets the valid SidecarSet's sidecar only. Two SidecarSets each valid alone but overlapping (the same
// container name, the same pods: the webhook's cluster rule "container … already exist in …") are both injected, and
// the API server refuses the pod with the duplicated container's field path: no pod runs with one of two sidecars
// picked at random. The program is killed and its webhook configurations deleted while each is created, then the
// program is started again (as sidecarset-invalid-spec.int.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { useSidecarSetScenarios } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
const app = `inj-inv-${s.id}`;
const stored: string[] = [];

afterAll(async () => {
  for (const name of stored) await s.client.delete({ ...SCS, name }).catch(() => undefined);
});

const sidecarSet = (name: string, container: string, strategy: Record<string, unknown>) => ({
  ...SCS,
  metadata: { name, labels: s.scopeLabels },
  spec: {
    selector: { matchLabels: { app } },
    containers: [{ name: container, image: 'busybox', command: ['sleep', '999d'] }],
    updateStrategy: strategy,
  },
});

/** Stores `obj` with the program down and its webhook configurations gone, then starts instance `instance`. */
async function storeWithoutWebhooks(obj: KubeObject, instance: string): Promise<void> {
  await s.storeWithoutWebhooks(obj);
  stored.push(obj.metadata!.name!);
  await s.startController(instance);
}

const names = (p: { spec?: { containers?: { name: string }[] } }) => (p.spec?.containers ?? []).map((c) => c.name);

describe('the pod webhook with SidecarSets stored without the SidecarSet webhook', () => {
  it('injects no SidecarSet that fails its own rules; overlapping ones get the pod refused with the field path', async () => {
    const bad = `inj-bad-${s.id}`;
    await storeWithoutWebhooks(sidecarSet(bad, 'bad-agent', { type: 'RollingUpdate', maxUnavailable: 'lots' }) as KubeObject, 'b');
    const good = await s.createSidecarSet(sidecarSet('inj-good', 'agent', { type: 'RollingUpdate', maxUnavailable: 1 }));
    const goodName = good.metadata!.name!;
    await expect.poll(() => s.podWebhookEntries(), { timeout: 60_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining(goodName), expect.stringContaining(bad)]),
    );
    const ns = await s.namespace();
    expect(names(await s.createPod(ns, 'p1', { app }))).toEqual(['agent', 'main']);

    // a twin of the valid one: its own rules pass, the overlap is a cluster rule only the webhook checks
    const twin = `inj-twin-${s.id}`;
    await storeWithoutWebhooks(sidecarSet(twin, 'agent', { type: 'RollingUpdate', maxUnavailable: 1 }) as KubeObject, 'c');
    await expect.poll(() => s.podWebhookEntries(), { timeout: 60_000 }).toEqual(
      expect.arrayContaining([expect.stringContaining(twin)]),
    );
    await expect(s.createPod(ns, 'p2', { app })).rejects.toThrow(/spec\.containers\[\d\]\.name: Duplicate value: "agent"/);
    // the pod created before is left as it was
    const p1 = await s.client.get<KubeObject & { spec?: { containers?: { name: string }[] } }>({
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: ns,
      name: 'p1',
    });
    expect(names(p1)).toEqual(['agent', 'main']);
  }, 240_000);
});
