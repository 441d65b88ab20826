// Advanced DaemonSet in place on a real node (issue 42 item 5, docs/real-nodes.md "Proof"): a DaemonSet whose
// nodeSelector picks only a kubelet with its own containerd, rollingUpdateType InPlaceIfPossible; an image patch
// restarts its pod's container in place — `kubectl get pod -o yaml` shows the same UID and IP, a new container ID,
// restartCount 1 — and the new tag answers over HTTP from the pod IP. Skipped, with the reason printed, where a real
// node cannot run.
import { expect, it } from 'vitest';
import { NGINX_UPDATE, expectWorkloadUpdatedInPlace, useRealNodeScenarios } from '@regatta/testing';
import { nginxDaemonSet, useDaemonSetScenarios } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'ads-real-node.int.test.ts',
  'ads',
  useDaemonSetScenarios,
);

describeOnRealNode('Advanced DaemonSet on a real node', () => {
  it("an image patch restarts the real node's pod in place: same UID and IP, new container ID, restartCount 1, new tag answering", async () => {
    const h = scenarios();
    const ns = await h.namespace();
    await h.create(
      nginxDaemonSet(ns, 'web', (ds) => {
        ds.spec['updateStrategy'] = {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 },
        };
        ds.spec.template.spec.containers[0]!.image = 'nginx:1.27';
        real.pin(ds.spec.template.spec as unknown as Record<string, unknown>);
      }),
    );
    await h.settled(ns, 'web', 1, 120_000);
    const { before, after } = await expectWorkloadUpdatedInPlace(h, {
      what: 'ads in-place update',
      node: real.name,
      ns,
      name: 'web',
      ...NGINX_UPDATE,
    });
    expect(after.metadata?.name).toBe(before.metadata?.name);
  }, 240_000);
});
