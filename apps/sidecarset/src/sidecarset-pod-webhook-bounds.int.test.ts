// docs/adr/0026-sidecarset-blast-radius.md, amendment: past 200 injecting SidecarSets the pod webhook configuration
// holds one entry for every pod instead of one per SidecarSet, as OpenKruise registers its pod webhook. Before, it grew
// with every SidecarSet until etcd refused to store it, and a new SidecarSet's pods were created without its sidecars
// (docs/reliability.md finding 19, run BJ: 883 entries, 1.8 MB).
import { ALL_PODS_ENTRY, MAX_POD_WEBHOOK_ENTRIES, POD_WEBHOOK_MODE_ANNOTATION } from '@regatta/sidecarset';
import { forEachLimited } from '@regatta/runtime';
import type { KubeObject } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { SCS, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const names = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.name);
const sidecarSet = (i: number) => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'SidecarSet',
  metadata: { name: `many-${i}` },
  spec: {
    selector: { matchLabels: { app: `many-${i}-${s.id}` } },
    containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'] }],
  },
});

describe('the pod webhook configuration stays bounded', () => {
  it(
    `${MAX_POD_WEBHOOK_ENTRIES + 1} SidecarSets: one entry for every pod; each SidecarSet injects and is observed; back to an entry each below the bound`,
    { timeout: 300_000 },
    async () => {
      const ns = await s.namespace();
      const created: KubeObject[] = [];
      await forEachLimited(
        Array.from({ length: MAX_POD_WEBHOOK_ENTRIES + 1 }, (_, i) => i),
        8,
        async (i) => void created.push(await s.createSidecarSet(sidecarSet(i))),
      );
      const configuration = () =>
        s.client.get<KubeObject & { webhooks?: { name: string }[] }>({
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          name: `regatta-sidecarset-pods-${s.id}`,
        });
      const shape = async () => {
        const cfg = await configuration();
        return `${cfg.metadata?.annotations?.[POD_WEBHOOK_MODE_ANNOTATION]}: ${cfg.webhooks?.length} entries`;
      };
      await expect.poll(shape, { timeout: 60_000, interval: 1000 }).toBe('all-pods: 1 entries');
      expect((await configuration()).webhooks?.[0]?.name).toBe(ALL_PODS_ENTRY);

      // the last SidecarSet's pods get its sidecar, a pod no SidecarSet selects is admitted unchanged
      const last = MAX_POD_WEBHOOK_ENTRIES;
      expect(names(await s.createPod(ns, 'selected', { app: `many-${last}-${s.id}` }))).toEqual([
        'agent',
        'main',
      ]);
      expect(names(await s.createPod(ns, 'unselected', { app: `none-${s.id}` }))).toEqual(['main']);
      // every SidecarSet is reported observed (its entry, the one for all pods, is applied)
      const lastName = `many-${last}-${s.id}`;
      await expect
        .poll(
          async () =>
            ((await s.client.get({ ...SCS, name: lastName })) as { status?: { observedGeneration?: number } })
              .status?.observedGeneration,
          {
            timeout: 60_000,
            interval: 1000,
          },
        )
        .toBe(1);

      // below the bound again: an entry per SidecarSet (and launch priority)
      await forEachLimited(
        created.slice(10),
        8,
        async (o) => void (await s.client.delete({ ...SCS, name: o.metadata!.name! })),
      );
      await expect.poll(shape, { timeout: 60_000, interval: 1000 }).toBe('per-sidecarset: 11 entries');
    },
  );
});
