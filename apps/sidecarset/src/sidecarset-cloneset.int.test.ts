// S1 §5.1 as the article runs it: the scs-demo SidecarSet, then a CloneSet whose pods carry app=nginx — every pod
// the CloneSet creates gets sidecar1 and the log volume, with the SidecarSet's annotations.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { livePods } from '@regatta/testing';
import { seedText, useSidecarSetScenarios } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios({ cloneset: true });

describe('SidecarSet injection into a CloneSet', () => {
  it('the seed scs-demo is injected into every pod of a CloneSet', async () => {
    const app = `nginx-${s.id}`;
    const scs = await s.createSidecarSet(
      seedText('s1-5.1-scs-demo.yaml').replace('app: nginx', `app: ${app}`),
    );
    const name = scs.metadata!.name!;
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 20_000 })
      .toContain(`${name}.sidecarset.pods.regatta.kruise.io`);
    const ns = await s.namespace();
    await s.client.create({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
        },
      },
    } as never);
    await expect
      .poll(async () => (await livePods(s.client, ns)).length, { timeout: 60_000, interval: 500 })
      .toBe(3);
    for (const pod of await livePods(s.client, ns)) {
      expect(pod.spec!.containers!.map((c) => c.name)).toEqual(['sidecar1', 'nginx']);
      expect(pod.spec!.volumes?.some((v) => v.name === 'log-volume')).toBe(true);
      expect(pod.metadata!.annotations!['kruise.io/sidecarset-injected-list']).toBe(name);
    }
  });

  it('S1 §2.2.2.4 container priority: the CloneSet pod gets the barrier env and its barrier releases p_10 first', async () => {
    const ns = await s.namespace();
    const app = `prio-${s.id}`;
    await s.client.create({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'prio', namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app }, annotations: { 'app-config': '... config v1 ...' } },
          spec: {
            containers: [
              {
                name: 'sidecar',
                image: 'busybox',
                env: [
                  { name: 'KRUISE_CONTAINER_PRIORITY', value: '10' },
                  {
                    name: 'APP_CONFIG',
                    valueFrom: { fieldRef: { fieldPath: "metadata.annotations['app-config']" } },
                  },
                ],
              },
              { name: 'main', image: 'main-image:v1' },
            ],
          },
        },
        updateStrategy: { type: 'InPlaceIfPossible' },
      },
    } as never);
    await expect.poll(async () => (await livePods(s.client, ns)).length, { timeout: 60_000 }).toBe(1);
    const [pod] = await livePods(s.client, ns);
    const name = pod!.metadata!.name!;
    const barrier = (c: string) =>
      pod!
        .spec!.containers!.find((x) => x.name === c)!
        .env!.find((e) => e.name === 'KRUISE_CONTAINER_BARRIER');
    expect(barrier('sidecar')).toEqual({
      name: 'KRUISE_CONTAINER_BARRIER',
      valueFrom: { configMapKeyRef: { name: `${name}-barrier`, key: 'p_10' } },
    });
    expect(barrier('main')?.valueFrom).toEqual({ configMapKeyRef: { name: `${name}-barrier`, key: 'p_0' } });
    await expect
      .poll(
        async () =>
          (
            await s.client.getOrUndefined<KubeObject & { data?: Record<string, string> }>({
              apiVersion: 'v1',
              kind: 'ConfigMap',
              namespace: ns,
              name: `${name}-barrier`,
            })
          )?.data,
        { timeout: 20_000 },
      )
      .toEqual({ p_10: 'true' });
  });
});
