// Advanced StatefulSet in place on a real node (issue 42 item 5, docs/real-nodes.md "Proof"): a one-replica set
// pinned to a kubelet with its own containerd, podUpdatePolicy InPlaceIfPossible; an image patch restarts the
// container in place — `kubectl get pod -o yaml` shows the same UID and IP, a new container ID, restartCount 1 — and
// the new tag answers over HTTP from the pod IP. Skipped, with the reason printed, where a real node cannot run.
import { expect, it } from 'vitest';
import { NGINX_UPDATE, expectWorkloadUpdatedInPlace, useRealNodeScenarios } from '@regatta/testing';
import { demo, useAstsScenarios } from './testing/scenario-harness.js';

const { real, scenarios, describeOnRealNode } = useRealNodeScenarios(
  'asts-real-node.int.test.ts',
  'asts',
  useAstsScenarios,
);

describeOnRealNode('Advanced StatefulSet on a real node', () => {
  it('an image patch restarts web-0 in place: same UID and IP, new container ID, restartCount 1, new tag answering', async () => {
    const h = scenarios();
    const ns = await h.namespace();
    const sts = demo(ns, 'web', 'nginx:1.27');
    sts.spec.replicas = 1;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 },
    };
    const template = sts.spec['template'] as { spec: Record<string, unknown> };
    real.pin(template.spec);
    // as OpenKruise's webhook requires with InPlaceIfPossible (docs/asts.md)
    template.spec['readinessGates'] = [{ conditionType: 'InPlaceUpdateReady' }];
    await h.create(sts);
    await h.settled(ns, 'web', 1, 120_000);
    const { before, after } = await expectWorkloadUpdatedInPlace(h, {
      what: 'asts in-place update',
      node: real.name,
      ns,
      name: 'web',
      ...NGINX_UPDATE,
    });
    expect(before.metadata?.name).toBe('web-0');
    expect(after.metadata?.name).toBe('web-0');
  }, 240_000);
});
