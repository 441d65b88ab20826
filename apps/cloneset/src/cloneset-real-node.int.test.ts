// CloneSet in-place update on a real node (issue 42, docs/real-nodes.md): a kubelet with its own containerd joins the
// run's cluster; a CloneSet pinned to it is updated in place, and what `kubectl get pod -o yaml` shows is asserted —
// same pod UID and IP, a new container ID, restartCount 1, the other container untouched — and the new image answers
// over HTTP from the pod IP.
// On a machine that cannot run a real node the file is skipped, with the reason printed.
import { describe, expect, it } from 'vitest';
import { answerOf, containerStatus, expectRestartedInPlace, useRealNode, type Pod } from '@regatta/testing';
import { useCloneSetScenarios } from './testing/scenario-harness.js';

const real = useRealNode('cloneset-real-node.int.test.ts');
const h = real.skipReason ? undefined : useCloneSetScenarios();

describe.skipIf(real.skipReason !== undefined)(
  `CloneSet on a real node${real.skipReason ? ` (skipped: ${real.skipReason})` : ''}`,
  () => {
    it('an image patch restarts the container in place: same UID and IP, new container ID, restartCount 1, new image answering', async () => {
      if (!h) throw new Error('not started');
      const ns = await h.namespace();
      await h.createDemo(ns, 'web', (cs) => {
        cs.spec.replicas = 1;
        cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
        const template = cs.spec['template'] as { spec: Record<string, unknown> };
        real.pin(template.spec);
        template.spec['containers'] = [
          {
            name: 'nginx',
            image: 'nginx:1.27',
            imagePullPolicy: 'IfNotPresent',
            ports: [{ containerPort: 80 }],
          },
          // a second container the update leaves alone
          { name: 'side', image: 'regatta/http:v1', env: [{ name: 'PORT', value: '8080' }] },
        ];
      });
      await h.settled(ns, 'web', 1, 120_000);
      const [before] = (await h.pods(ns)) as [Pod];
      const side0 = containerStatus(before, 'side');
      expect(before.spec?.nodeName).toBe(real.name);
      expect(containerStatus(before, 'nginx')?.restartCount).toBe(0);
      const ip = before.status?.podIP ?? '';
      expect(ip.startsWith(real.node.network.subnet.replace(/\.0\/24$/, '.'))).toBe(true);
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.27');

      const patched = Date.now();
      await h.setImage(ns, 'web', 'nginx:1.28');
      await h.settled(ns, 'web', 1, 60_000);
      await expect
        .poll(async () => containerStatus((await h.pods(ns))[0]!, 'nginx')?.restartCount, { timeout: 30_000 })
        .toBe(1);
      const [after] = (await h.pods(ns)) as [Pod];
      expectRestartedInPlace(before, after, 'nginx', 'nginx:1.28');
      expect(containerStatus(after, 'side')?.containerID).toBe(side0?.containerID);
      expect(containerStatus(after, 'side')?.restartCount).toBe(0);
      expect(await answerOf(ip, 8080)).toContain('regatta/http:v1');
      await expect.poll(() => answerOf(ip), { timeout: 15_000 }).toContain('nginx:1.28');
      process.stderr.write(
        `[real node] in-place update answered with the new image ${Date.now() - patched} ms after the patch\n`,
      );

      // kubectl logs [--previous]: the API server reaches the kubelet with its client certificate, the kubelet
      // authorizes it by SubjectAccessReview (docs/real-nodes.md "Credentials")
      const logs = (previous: boolean) =>
        h.client.request<string>('GET', `/api/v1/namespaces/${ns}/pods/${after.metadata?.name}/log`, {
          query: { container: 'nginx', previous },
        });
      expect(await logs(true)).toContain('serving nginx:1.27');
      expect(await logs(false)).toContain('serving nginx:1.28');

      await h.client.delete({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        namespace: ns,
        name: 'web',
      });
      await expect.poll(async () => (await h.pods(ns)).length, { timeout: 60_000 }).toBe(0);
    }, 240_000);
  },
);
