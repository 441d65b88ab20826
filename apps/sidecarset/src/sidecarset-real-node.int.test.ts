// SidecarSet on a real node (issue 42 item 5, docs/real-nodes.md "Proof"): a pod pinned to a kubelet with its own
// containerd gets the sidecar injected by the pod webhook and runs it; a sidecar image change in the SidecarSet is
// applied in place — `kubectl get pod -o yaml` shows the same UID and IP, the sidecar with a new container ID and
// restartCount 1, the app container with its old ID — and the new sidecar tag answers over HTTP from the pod IP.
// Skipped, with the reason printed, where a real node cannot run.
import { expect, it } from 'vitest';
import { answerOf, containerStatus, expectInPlaceUpdate, useRealNodeScenarios } from '@regatta/testing';
import { SCS, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'sidecarset-real-node.int.test.ts',
  'scs',
  useSidecarSetScenarios,
);
const names = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.name);

describeOnRealNode('SidecarSet on a real node', () => {
  it('injects the sidecar into a pod on the real node, then upgrades it in place: new sidecar container, app untouched', async () => {
    const s = scenarios();
    const app = `real-${s.id}`;
    const scs = await s.createSidecarSet({
      ...SCS,
      metadata: { name: 'real' },
      spec: {
        selector: { matchLabels: { app } },
        updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
        containers: [{ name: 'sidecar', image: 'regatta/http:v1', env: [{ name: 'PORT', value: '8080' }] }],
      },
    });
    const name = scs.metadata?.name ?? '';
    await expect
      .poll(() => s.podWebhookEntries(), { timeout: 20_000, interval: 300 })
      .toContain(`${name}.sidecarset.pods.regatta.kruise.io`);
    const ns = await s.namespace();
    const created = await s.createPod(
      ns,
      'web',
      { app },
      real.pin({ containers: [{ name: 'main', image: 'nginx:1.27' }] }),
    );
    expect(names(created)).toEqual(['sidecar', 'main']);
    const ref = { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'web' } as const;
    const read = () => s.client.get<Pod>(ref);
    await expect
      .poll(async () => (await read()).status?.containerStatuses?.every((c) => c.ready) ?? false, {
        timeout: 60_000,
      })
      .toBe(true);
    const ip = (await read()).status?.podIP ?? '';
    await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');
    const { before, after } = await expectInPlaceUpdate({
      what: 'sidecarset in-place sidecar upgrade',
      node: real.name,
      read,
      container: 'sidecar',
      port: 8080,
      from: 'regatta/http:v1',
      to: 'regatta/http:v2',
      // what `kubectl edit sidecarset` does: the webhook recomputes the hashes, the controller upgrades the pod
      update: () =>
        s.client.patch(
          { ...SCS, name },
          [{ op: 'replace', path: '/spec/containers/0/image', value: 'regatta/http:v2' }],
          { type: 'json' },
        ),
      answerTimeoutMs: 90_000,
    });
    expect(containerStatus(after, 'main')?.containerID).toBe(containerStatus(before, 'main')?.containerID);
    expect(containerStatus(after, 'main')?.restartCount).toBe(0);
    expect(await answerOf(ip)).toContain('nginx:1.27');
  }, 240_000);
});
