// SidecarSet on a real node (issue 42 item 5, docs/real-nodes.md "Proof"): a pod pinned to a kubelet with its own
// containerd gets the sidecar injected by the pod webhook and runs it; a sidecar image change in the SidecarSet is
// applied in place — `kubectl get pod -o yaml` shows the same UID and IP, the sidecar with a new container ID and
// restartCount 1, the app container with its old ID — and the new sidecar tag answers over HTTP from the pod IP.
// Skipped, with the reason printed, where a real node cannot run.
import { describe, expect, it } from 'vitest';
import { answerOf, containerStatus, expectRestartedInPlace, useRealNode } from '@regatta/testing';
import { SCS, useSidecarSetScenarios, type Pod } from './testing/scenario-harness.js';

const real = useRealNode('sidecarset-real-node.int.test.ts', 'scs');
const s = real.skipReason ? undefined : useSidecarSetScenarios();
const names = (p: Pod) => (p.spec?.containers ?? []).map((c) => c.name);

describe.skipIf(real.skipReason !== undefined)(
  `SidecarSet on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    it('injects the sidecar into a pod on the real node, then upgrades it in place: new sidecar container, app untouched', async () => {
      if (!s) throw new Error('not started');
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
      const before = await read();
      expect(before.spec?.nodeName).toBe(real.name);
      const ip = before.status?.podIP ?? '';
      await expect.poll(() => answerOf(ip, 8080), { timeout: 15_000 }).toContain('regatta/http:v1');
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');

      // what `kubectl edit sidecarset` does: the webhook recomputes the hashes, the controller upgrades the pod
      const patched = Date.now();
      await s.client.patch(
        { ...SCS, name },
        [{ op: 'replace', path: '/spec/containers/0/image', value: 'regatta/http:v2' }],
        { type: 'json' },
      );
      await expect
        .poll(() => answerOf(ip, 8080), { timeout: 90_000, interval: 100 })
        .toContain('regatta/http:v2');
      const answered = Date.now() - patched;
      await expect
        .poll(async () => containerStatus(await read(), 'sidecar')?.restartCount, { timeout: 30_000 })
        .toBe(1);
      const after = await read();
      expectRestartedInPlace(before, after, 'sidecar', 'regatta/http:v2');
      expect(containerStatus(after, 'main')?.containerID).toBe(containerStatus(before, 'main')?.containerID);
      expect(containerStatus(after, 'main')?.restartCount).toBe(0);
      expect(await answerOf(ip)).toContain('nginx:1.27');
      process.stderr.write(
        `[real node] sidecarset in-place sidecar upgrade answered with the new tag ${answered} ms after the patch\n`,
      );
    }, 240_000);
  },
);
