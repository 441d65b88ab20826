// Native sidecars in a SidecarSet on simulated nodes (issue 45 item 2, docs/sidecarset.md "Native sidecars"): a
// SidecarSet whose sidecar is an init container with `restartPolicy: Always` is admitted with `RollingUpdate`
// (upstream refuses it), injected among the pod's init containers, and upgraded in place on an image change: the
// pod keeps its UID, the app container its ID, the native sidecar restarts once on the new image
// (docs/adr/0090-native-sidecar-in-place-upgrade.md), and the status counts the pods updated and ready.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { containerStatus, isReady } from '@regatta/testing';
import { SCS, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();
const initStatus = (p: Pod, name: string) => p.status?.initContainerStatuses?.find((c) => c.name === name);
const initImage = (p: Pod, name: string) => p.spec?.initContainers?.find((c) => c.name === name)?.image;

describe('SidecarSet native sidecars (simulated nodes)', () => {
  it('injects a native sidecar and upgrades it in place: same pod UID and app container ID, restartCount + 1', async () => {
    const app = `native-${s.id}`;
    const scs = await s.createSidecarSet({
      ...SCS,
      metadata: { name: 'native' },
      spec: {
        selector: { matchLabels: { app } },
        updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
        initContainers: [{ name: 'proxy', image: 'nginx:1.27', restartPolicy: 'Always' }],
      },
    });
    const name = scs.metadata?.name ?? '';
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 20_000, interval: 300 })
      .toContain(`${name}.sidecarset.pods.regatta.kruise.io`);
    const ns = await s.namespace();
    const created = await Promise.all(
      ['web-0', 'web-1'].map((p) =>
        s.createPod(
          ns,
          p,
          { app },
          { initContainers: [{ name: 'setup', image: 'busybox:1.36', command: ['true'] }] },
        ),
      ),
    );
    for (const p of created) {
      expect(p.spec?.initContainers?.map((c) => [c.name, c.restartPolicy])).toEqual([
        ['setup', undefined],
        ['proxy', 'Always'],
      ]);
      expect(p.spec?.containers?.map((c) => c.name)).toEqual(['main']);
    }
    const list = async () =>
      (await s.client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns })).items.sort((a, b) =>
        (a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1,
      );
    await expect.poll(async () => (await list()).filter(isReady).length, { timeout: 60_000 }).toBe(2);
    const get = () => s.client.get<KubeSidecarSet>({ ...SCS, name });
    await expect
      .poll(async () => (await get()).status, { timeout: 30_000 })
      .toMatchObject({ matchedPods: 2, updatedPods: 2, readyPods: 2 });
    const before = await list();

    await s.client.patch(
      { ...SCS, name },
      [{ op: 'replace', path: '/spec/initContainers/0/image', value: 'nginx:1.28' }],
      { type: 'json' },
    );
    await expect
      .poll(
        async () =>
          (await list()).map((p) => [
            initImage(p, 'proxy'),
            initStatus(p, 'proxy')?.image,
            initStatus(p, 'proxy')?.restartCount,
            isReady(p),
          ]),
        { timeout: 90_000, interval: 500 },
      )
      .toEqual([
        ['nginx:1.28', 'nginx:1.28', 1, true],
        ['nginx:1.28', 'nginx:1.28', 1, true],
      ]);
    const after = await list();
    after.forEach((p, i) => {
      const b = before[i] as Pod;
      expect(p.metadata?.uid).toBe(b.metadata?.uid);
      expect(initStatus(p, 'proxy')?.containerID).not.toBe(initStatus(b, 'proxy')?.containerID);
      expect(containerStatus(p, 'main')?.containerID).toBe(containerStatus(b, 'main')?.containerID);
      expect(containerStatus(p, 'main')?.restartCount).toBe(0);
      expect(initStatus(p, 'setup')?.restartCount ?? 0).toBe(0);
    });
    await expect
      .poll(async () => (await get()).status, { timeout: 30_000 })
      .toMatchObject({ matchedPods: 2, updatedPods: 2, readyPods: 2, updatedReadyPods: 2 });
    // the kubelet's own words for it (kubelet computeInitContainerActions; node-simulator runtime.ts)
    const killing = async () =>
      (
        await s.kubectl([
          'get',
          'events',
          '-n',
          ns,
          '--field-selector',
          'reason=Killing',
          '-o',
          'jsonpath={.items[*].message}',
        ])
      ).stdout;
    await expect.poll(killing, { timeout: 15_000 }).toContain('Init container proxy definition changed');
  }, 240_000);
});

interface KubeSidecarSet extends KubeObject {
  status?: { matchedPods?: number; updatedPods?: number; readyPods?: number; updatedReadyPods?: number };
}
