// S1 §5.1 as the article runs it: the scs-demo SidecarSet, then a CloneSet whose pods carry app=nginx — every pod
// the CloneSet creates gets sidecar1 and the log volume, with the SidecarSet's annotations.
import { describe, expect, it } from 'vitest';
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
});
