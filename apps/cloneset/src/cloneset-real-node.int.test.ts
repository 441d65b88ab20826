// CloneSet in-place update on a real node (issue 42, docs/real-nodes.md): a kubelet with its own containerd joins the
// run's cluster; a CloneSet pinned to it is updated in place, and what `kubectl get pod -o yaml` shows is asserted —
// same pod UID and IP, a new container ID, restartCount 1, the other container untouched — and the new image answers
// over HTTP from the pod IP.
// On a machine that cannot run a real node the file is skipped, with the reason printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  missingNodeComponents,
  NODE_KIND_LABEL,
  RealNode,
  realNodeUnavailable,
} from '@regatta/local-cluster';
import { randomId, scenarioCluster, testNodeTaint, testNodeToleration, type Pod } from '@regatta/testing';
import { useCloneSetScenarios } from './testing/scenario-harness.js';

const missing = missingNodeComponents();
const skipReason =
  realNodeUnavailable() ??
  (missing.length > 0
    ? `${missing.join(', ')} not built (bash tools/controlplane/build.sh node)`
    : undefined);
if (skipReason) process.stderr.write(`[real node] cloneset-real-node.int.test.ts skipped: ${skipReason}\n`);

const h = skipReason ? undefined : useCloneSetScenarios();
const TAINT = 'real';

async function answer(ip: string, port = 80): Promise<string> {
  const res = await fetch(`http://${ip}:${port}/`, { signal: AbortSignal.timeout(2_000) });
  return res.text();
}

describe.skipIf(skipReason !== undefined)(
  `CloneSet on a real node${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    let node: RealNode | undefined;
    const name = `real-cs-${randomId()}`;

    beforeAll(async () => {
      const c = scenarioCluster();
      node = await RealNode.start({
        clusterDir: c.dir,
        kubeconfig: c.kubeconfig,
        apiserver: c.apiserver,
        name,
        zone: 'zone-real',
        // other files' DaemonSets run on every node they tolerate: this one is tainted as every extra test node
        taints: [testNodeTaint(TAINT)],
        log: (line) => process.stderr.write(`[real node] ${line}\n`),
      });
    }, 180_000);

    afterAll(async () => {
      const left = await node?.stop({ deleteNode: true });
      expect(left ?? []).toEqual([]);
      // no container, shim, mount, bridge or kubepods cgroup left behind
      expect((await node?.leftovers()) ?? []).toEqual([]);
    }, 60_000);

    it('an image patch restarts the container in place: same UID and IP, new container ID, restartCount 1, new image answering', async () => {
      if (!h || !node) throw new Error('not started');
      const ns = await h.namespace();
      await h.createDemo(ns, 'web', (cs) => {
        cs.spec.replicas = 1;
        cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
        const template = cs.spec['template'] as { spec: Record<string, unknown> };
        template.spec['nodeSelector'] = { [NODE_KIND_LABEL]: 'real', 'kubernetes.io/hostname': name };
        template.spec['tolerations'] = [testNodeToleration(TAINT)];
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
      const status = (p: Pod | undefined, c: string) =>
        p?.status?.containerStatuses?.find((s) => s.name === c);
      const s0 = status(before, 'nginx');
      const side0 = status(before, 'side');
      expect(before.spec?.nodeName).toBe(name);
      expect(s0?.restartCount).toBe(0);
      const ip = before.status?.podIP ?? '';
      expect(ip.startsWith(node.network.subnet.replace(/\.0\/24$/, '.'))).toBe(true);
      await expect.poll(() => answer(ip).catch(() => ''), { timeout: 15_000 }).toContain('nginx:1.27');

      const patched = Date.now();
      await h.setImage(ns, 'web', 'nginx:1.28');
      await h.settled(ns, 'web', 1, 60_000);
      await expect
        .poll(async () => status((await h.pods(ns))[0], 'nginx')?.restartCount, {
          timeout: 30_000,
        })
        .toBe(1);
      const [after] = (await h.pods(ns)) as [Pod];
      const s1 = status(after, 'nginx');
      expect(status(after, 'side')?.containerID).toBe(side0?.containerID);
      expect(status(after, 'side')?.restartCount).toBe(0);
      expect(await answer(ip, 8080)).toContain('regatta/http:v1');
      expect(after.metadata?.uid).toBe(before.metadata?.uid);
      expect(after.status?.podIP).toBe(ip);
      expect(s1?.containerID).toMatch(/^containerd:\/\//);
      expect(s1?.containerID).not.toBe(s0?.containerID);
      expect(s1?.restartCount).toBe(1);
      expect(s1?.image).toContain('nginx:1.28');
      await expect.poll(() => answer(ip).catch(() => ''), { timeout: 15_000 }).toContain('nginx:1.28');
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
