// CloneSet in-place resize on a real node (issue 45, docs/adr/0087-in-place-resource-resize.md): a CloneSet pinned
// to the run's real kubelet changes only a CPU limit; the controller resizes the pod through pods/resize and the real
// kubelet actuates it — same pod UID, same container ID, no restart, and `kubectl get pod -o jsonpath` shows the new
// resources in the spec and in the container's status.
// On a machine that cannot run a real node the file is skipped, with the reason printed.
import { expect, inject, it } from 'vitest';
import { containerStatus, runKubectl, useRealNodeScenarios, type Pod } from '@regatta/testing';
import { useCloneSetScenarios } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'cloneset-real-node-resize.int.test.ts',
  undefined,
  useCloneSetScenarios,
);

describeOnRealNode('CloneSet resize on a real node', () => {
  it('a CPU limit change is resized in place by the kubelet: same UID and container ID, new resources reported', async () => {
    const h = scenarios();
    const ns = await h.namespace();
    const resources = (cpu: string) => ({
      requests: { cpu: '50m', memory: '32Mi' },
      limits: { cpu, memory: '64Mi' },
    });
    await h.createDemo(ns, 'web', (cs) => {
      cs.spec.replicas = 1;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
      const template = cs.spec['template'] as { spec: Record<string, unknown> };
      real.pin(template.spec);
      template.spec['containers'] = [
        {
          name: 'app',
          image: 'regatta/http:v1',
          env: [{ name: 'PORT', value: '8080' }],
          resources: resources('100m'),
        },
      ];
    });
    await h.settled(ns, 'web', 1, 120_000);
    const [before] = (await h.pods(ns)) as [Pod];
    expect(before.spec?.nodeName).toBe(real.name);
    const name = before.metadata?.name ?? '';

    const patched = Date.now();
    await h.client.patch(
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: ns, name: 'web' },
      [{ op: 'replace', path: '/spec/template/spec/containers/0/resources/limits/cpu', value: '200m' }],
      { type: 'json' },
    );
    const jsonpath = async (path: string) =>
      (
        await runKubectl(inject('cluster').kubeconfig, [
          '-n',
          ns,
          'get',
          'pod',
          name,
          '-o',
          `jsonpath=${path}`,
        ])
      ).stdout;
    await expect
      .poll(() => jsonpath('{.status.containerStatuses[0].resources.limits.cpu}'), { timeout: 60_000 })
      .toBe('200m');
    await h.settled(ns, 'web', 1, 60_000);
    process.stderr.write(
      `[real node] resize actuated by the kubelet ${Date.now() - patched} ms after the patch\n`,
    );
    expect(await jsonpath('{.spec.containers[0].resources.limits.cpu}')).toBe('200m');
    expect(await jsonpath('{.metadata.uid}')).toBe(before.metadata?.uid);
    const [after] = (await h.pods(ns)) as [Pod];
    expect(containerStatus(after, 'app')?.containerID).toBe(containerStatus(before, 'app')?.containerID);
    expect(containerStatus(after, 'app')?.restartCount).toBe(0);
    expect((after.status?.conditions ?? []).map((c) => c.type)).not.toContain('PodResizePending');
    expect((await h.events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(1);
  }, 240_000);
});
