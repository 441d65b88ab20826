// Advanced DaemonSet rollouts on the shared local cluster (docs/ads.md "Rolling update"; S1 §4.1; OpenKruise
// test/e2e/apps/v1beta1/daemonset.go): Standard with maxUnavailable never leaves more nodes without a ready pod;
// the gray update by node label (rollingUpdate.selector) and partition; paused; maxSurge puts the new pod beside the
// old one; a controller killed with SIGKILL mid-rollout is replaced and the rollout completes within the same bounds.
import { describe, expect, it } from 'vitest';
import { imageOf, recordPods } from '@regatta/testing';
import { maxNodesWithoutReadyPod, maxPodsOnANode } from './testing/invariants.js';
import { nginxDaemonSet, nodeOf, useDaemonSetScenarios } from './testing/scenario-harness.js';

const h = useDaemonSetScenarios();
const { namespace, pods, settled } = h;

const standard = (ru: Record<string, unknown>) => ({
  type: 'RollingUpdate',
  rollingUpdate: { rollingUpdateType: 'Standard', ...ru },
});

describe('Advanced DaemonSet rollout', () => {
  it('Standard, maxUnavailable 2: every pod recreated, never more than 2 nodes without a ready pod', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'std', (ds) => (ds.spec['updateStrategy'] = standard({ maxUnavailable: 2 }))),
    );
    await settled(ns, 'std', h.nodes.length);
    const rec = await recordPods(h.client, ns);
    const listed = rec.snapshots.length;
    await h.setImage(ns, 'std', 'nginx:1.29.0');
    await expect
      .poll(async () => (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0').length, {
        timeout: 90_000,
      })
      .toBe(h.nodes.length);
    await settled(ns, 'std', h.nodes.length);
    expect(maxNodesWithoutReadyPod(rec, listed, h.nodes)).toBeLessThanOrEqual(2);
    // one live pod per node at every moment (docs/ads.md "Rolling update": no surge, so never two)
    expect(maxPodsOnANode(rec, listed)).toBe(1);
    // events are written after the pods they tell of
    await expect.poll(async () => (await h.events(ns, 'SuccessfulDelete')).length, { timeout: 30_000 }).toBe(h.nodes.length);
    // the rollout's trace: one recreate span per node
    await expect
      .poll(
        async () =>
          (await h.rolloutSpans(ns, 'std'))
            .filter((sp) => sp.operationName === 'daemonset.pod-update')
            .map((sp) => String(sp.tags['daemonset.update.type'])),
        { timeout: 40_000, interval: 1000 },
      )
      .toEqual(h.nodes.map(() => 'recreate'));
  });

  it('gray update (S1 §4.1): rollingUpdate.selector on a node hostname updates that node only; partition keeps nodes old', async () => {
    const ns = await namespace();
    const [n0] = h.nodes as [string];
    await h.create(
      nginxDaemonSet(ns, 'gray', (ds) => {
        ds.spec['updateStrategy'] = standard({ selector: { matchLabels: { 'kubernetes.io/hostname': n0 } } });
      }),
    );
    await settled(ns, 'gray', h.nodes.length);
    await h.setImage(ns, 'gray', 'nginx:1.29.0');
    await expect
      .poll(async () => (await h.daemonSet(ns, 'gray')).status?.updatedNumberScheduled, { timeout: 60_000 })
      .toBe(1);
    await new Promise((r) => setTimeout(r, 3_000));
    const list = await pods(ns);
    expect(list.filter((p) => imageOf(p) === 'nginx:1.29.0').map(nodeOf)).toEqual([n0]);
    // the selector gone, partition 3 of 5: two nodes updated (the one already updated counts)
    await h.patch(ns, 'gray', {
      spec: { updateStrategy: { rollingUpdate: { selector: null, partition: 3 } } },
    });
    await expect
      .poll(async () => (await h.daemonSet(ns, 'gray')).status?.updatedNumberScheduled, { timeout: 60_000 })
      .toBe(h.nodes.length - 3);
    // paused: nothing moves
    await h.patch(ns, 'gray', {
      spec: { updateStrategy: { rollingUpdate: { partition: 0, paused: true } } },
    });
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await h.daemonSet(ns, 'gray')).status?.updatedNumberScheduled).toBe(h.nodes.length - 3);
    await h.patch(ns, 'gray', { spec: { updateStrategy: { rollingUpdate: { paused: false } } } });
    await settled(ns, 'gray', h.nodes.length);
  });

  it('maxSurge 2 (minReadySeconds 1): the new pod starts beside the old one, which goes once the new is available', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'surge', (ds) => {
        ds.spec['updateStrategy'] = standard({ maxUnavailable: 0, maxSurge: 2 });
        ds.spec['minReadySeconds'] = 1;
      }),
    );
    await settled(ns, 'surge', h.nodes.length);
    const rec = await recordPods(h.client, ns);
    const listed = rec.snapshots.length;
    await h.setImage(ns, 'surge', 'nginx:1.29.0');
    await expect
      .poll(async () => (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0').length, {
        timeout: 90_000,
      })
      .toBe(h.nodes.length);
    await settled(ns, 'surge', h.nodes.length);
    expect(maxNodesWithoutReadyPod(rec, listed, h.nodes)).toBe(0);
    expect(maxPodsOnANode(rec, listed)).toBe(2);
  });

  it('kill -9 mid-rollout: a new controller completes it; never more than maxUnavailable nodes without a ready pod', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'killed', (ds) => {
        ds.spec['updateStrategy'] = standard({ maxUnavailable: 1 });
        ds.spec['minReadySeconds'] = 2;
      }),
    );
    await settled(ns, 'killed', h.nodes.length);
    const rec = await recordPods(h.client, ns);
    const listed = rec.snapshots.length;
    await h.setImage(ns, 'killed', 'nginx:1.29.0');
    await expect
      .poll(async () => (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0').length, {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(1);
    h.controller.killNow();
    await h.startController('b');
    await settled(ns, 'killed', h.nodes.length, 150_000);
    expect((await pods(ns)).every((p) => imageOf(p) === 'nginx:1.29.0')).toBe(true);
    expect(maxNodesWithoutReadyPod(rec, listed, h.nodes)).toBeLessThanOrEqual(1);
    // never two pods on a node, across the restart too
    expect(maxPodsOnANode(rec, listed)).toBe(1);
  });
});
