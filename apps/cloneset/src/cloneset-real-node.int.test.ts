// CloneSet in-place update on a real node (issue 42, docs/real-nodes.md): a kubelet with its own containerd joins the
// run's cluster; a CloneSet pinned to it is updated in place, and what `kubectl get pod -o yaml` shows is asserted —
// same pod UID and IP, a new container ID, restartCount 1, the other container untouched — and the new image answers
// over HTTP from the pod IP.
// On a machine that cannot run a real node the file is skipped, with the reason printed.
import { expect, it } from 'vitest';
import {
  answerOf,
  containerStatus,
  NGINX_UPDATE,
  expectWorkloadUpdatedInPlace,
  useRealNodeScenarios,
} from '@regatta/testing';
import { useCloneSetScenarios } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'cloneset-real-node.int.test.ts',
  undefined,
  useCloneSetScenarios,
);

describeOnRealNode('CloneSet on a real node', () => {
  it('an image patch restarts the container in place: same UID and IP, new container ID, restartCount 1, new image answering', async () => {
    const h = scenarios();
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
    const { before, after, ip } = await expectWorkloadUpdatedInPlace(h, {
      what: 'cloneset in-place update',
      node: real.name,
      ns,
      name: 'web',
      ...NGINX_UPDATE,
    });
    expect(ip.startsWith(real.node.network.subnet.replace(/\.0\/24$/, '.'))).toBe(true);
    expect(containerStatus(after, 'side')?.containerID).toBe(containerStatus(before, 'side')?.containerID);
    expect(containerStatus(after, 'side')?.restartCount).toBe(0);
    expect(await answerOf(ip, 8080)).toContain('regatta/http:v1');

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
});
