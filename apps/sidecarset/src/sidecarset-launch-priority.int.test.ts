// Container launch priority (docs/sidecarset.md): the pod webhook gives each container its barrier env, the program
// creates `<pod>-barrier` and releases the highest priority first. Without nodes no container becomes ready, so the
// barrier stays at its first key; ordered start on a node needs the node simulator to honour configMapKeyRef env.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const s = useSidecarSetScenarios();

describe('container launch priority', () => {
  it('Ordered: barrier env p_0, p_-1 on <pod>-barrier; the ConfigMap is created and p_0 released', async () => {
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 20_000 })
      .toContain('launch-priority.pods.regatta.kruise.io');
    const ns = await s.namespace();
    const pod = await s.client.create<Pod>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        generateName: 'ordered-',
        namespace: ns,
        annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' },
      },
      spec: {
        containers: [
          { name: 'sidecar', image: 'busybox' },
          { name: 'main', image: 'nginx' },
        ],
      },
    });
    const name = pod.metadata!.name!;
    expect(pod.spec!.containers!.map((c) => c.env)).toEqual([
      [
        {
          name: 'KRUISE_CONTAINER_BARRIER',
          valueFrom: { configMapKeyRef: { name: `${name}-barrier`, key: 'p_0' } },
        },
      ],
      [
        {
          name: 'KRUISE_CONTAINER_BARRIER',
          valueFrom: { configMapKeyRef: { name: `${name}-barrier`, key: 'p_-1' } },
        },
      ],
    ]);
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
        { timeout: 20_000, interval: 300 },
      )
      .toEqual({ p_0: 'true' });
  });

  it('a pod asking for no priority is not sent to the webhook and gets no barrier', async () => {
    const ns = await s.namespace();
    const pod = await s.client.create<Pod>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'plain', namespace: ns },
      spec: {
        containers: [
          { name: 'a', image: 'busybox' },
          { name: 'b', image: 'nginx' },
        ],
      },
    });
    expect(pod.spec!.containers!.map((c) => c.env)).toEqual([undefined, undefined]);
  });
});
