// docs/adr/0026-sidecarset-blast-radius.md, both halves with the program killed: a pod no SidecarSet selects is
// created normally; a selected pod is refused (never created without its sidecar), then injected once it is back.
import { describe, expect, it } from 'vitest';
import { useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();

describe('SidecarSet blast radius', () => {
  it('program killed: unselected pods are created at once, selected pods are refused, then injected when it is back', async () => {
    const app = `blast-${s.id}`;
    const scs = await s.createSidecarSet({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'SidecarSet',
      metadata: { name: 'blast' },
      spec: {
        selector: { matchLabels: { app } },
        // shareVolumePolicy reads the pod's mounts: the webhook's, not a MutatingAdmissionPolicy's (docs/adr/0089)
        containers: [{ name: 'agent', image: 'busybox', command: ['sleep', '999d'], shareVolumePolicy: { type: 'enabled' } }],
      },
    });
    const name = scs.metadata!.name!;
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 20_000 })
      .toContain(`${name}.sidecarset.pods.regatta.kruise.io`);
    const ns = await s.namespace();

    s.controller.killNow();
    await new Promise((r) => setTimeout(r, 500));

    const started = Date.now();
    for (let i = 0; i < 5; i++) {
      const pod = await s.createPod(ns, `unselected-${i}`, { app: 'unrelated' });
      expect(pod.spec!.containers!.map((c) => c.name)).toEqual(['main']);
    }
    expect(Date.now() - started).toBeLessThan(5_000);

    await expect(s.createPod(ns, 'selected', { app })).rejects.toThrow(/sidecarset|webhook/i);
    expect(
      await s.client.getOrUndefined({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'selected' }),
    ).toBeUndefined();

    await s.startController('b');
    let injected: Pod | undefined;
    await expect
      .poll(
        async () => {
          injected = await s.createPod(ns, 'selected', { app }).catch(() => undefined);
          return injected?.spec?.containers?.map((c) => c.name);
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toEqual(['agent', 'main']);
  });
});
