// Advanced DaemonSet lifecycle and update-type scenarios (OpenKruise test/e2e/apps/v1beta1/daemonset.go; docs/ads.md):
// the preDelete hook holds each old pod in PreparingDelete, one node at a time; InPlaceIfPossible recreates when the
// change cannot be done in place; v1alpha1 `Surging` (converted to Standard with maxSurge 1) brings the new pod up
// before the old one goes.
import { describe, expect, it } from 'vitest';
import { imageOf, recordPods } from '@regatta/testing';
import { maxNodesWithoutReadyPod, maxPodsOnANode } from './testing/invariants.js';
import { nginxDaemonSet, useDaemonSetScenarios } from './testing/scenario-harness.js';

const h = useDaemonSetScenarios();
const { namespace, pods, settled } = h;
const STATE = 'lifecycle.apps.kruise.io/state';
const uid = (p: { metadata?: { uid?: string } }) => p.metadata?.uid ?? '';

describe('Advanced DaemonSet lifecycle', () => {
  it('preDelete hook: exactly one pod waits in PreparingDelete, none deleted; releasing it lets the next one go', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'hooked', (ds) => {
        ds.spec['lifecycle'] = { preDelete: { labelsHandler: { 'example.com/hold': 'true' } } };
        ds.spec.template.metadata = {
          labels: { ...ds.spec.template.metadata?.labels, 'example.com/hold': 'true' },
        };
      }),
    );
    await settled(ns, 'hooked', h.nodes.length);
    await h.patch(ns, 'hooked', {
      spec: {
        template: {
          spec: {
            containers: [{ name: 'nginx', image: 'nginx:1.28.0', resources: { requests: { cpu: '10m' } } }],
          },
        },
      },
    });
    await expect
      .poll(
        async () => (await pods(ns)).filter((p) => p.metadata?.labels?.[STATE] === 'PreparingDelete').length,
        { timeout: 30_000 },
      )
      .toBe(1);
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await pods(ns)).filter((p) => p.metadata?.labels?.[STATE] === 'PreparingDelete')).toHaveLength(1);
    expect(await h.events(ns, 'SuccessfulDelete')).toEqual([]);
    const held = (await pods(ns)).find((p) => p.metadata?.labels?.[STATE] === 'PreparingDelete')!;
    await h.client.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: held.metadata!.name! },
      { metadata: { labels: { 'example.com/hold': null } } },
      { type: 'merge' },
    );
    await expect
      .poll(async () => (await pods(ns)).some((p) => uid(p) === uid(held)), { timeout: 30_000 })
      .toBe(false);
    // the next node's old pod is held in turn
    await expect
      .poll(
        async () =>
          (await pods(ns)).filter(
            (p) => p.metadata?.labels?.[STATE] === 'PreparingDelete' && uid(p) !== uid(held),
          ).length,
        { timeout: 30_000 },
      )
      .toBe(1);
    await expect.poll(async () => (await h.events(ns, 'SuccessfulDelete')).length).toBe(1);
  });

  it('InPlaceIfPossible: a change other than the image (env) recreates the pods', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'recreate', (ds) => {
        ds.spec['updateStrategy'] = {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: '100%' },
        };
      }),
    );
    await settled(ns, 'recreate', h.nodes.length);
    const before = new Set((await pods(ns)).map(uid));
    await h.patch(ns, 'recreate', {
      spec: {
        template: {
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.28.0', env: [{ name: 'A', value: 'b' }] }] },
        },
      },
    });
    await expect
      .poll(async () => (await pods(ns)).filter((p) => !before.has(uid(p))).length, { timeout: 60_000 })
      .toBe(h.nodes.length);
    await settled(ns, 'recreate', h.nodes.length);
    expect(await h.events(ns, 'SuccessfulUpdatePodInPlace')).toEqual([]);
  });

  it('v1alpha1 Surging with minReadySeconds: each node gets its new pod before the old one goes', async () => {
    const ns = await namespace();
    await h.create(
      nginxDaemonSet(ns, 'surging', (ds) => {
        ds.spec['updateStrategy'] = {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'Surging' },
        };
        ds.spec['minReadySeconds'] = 1;
      }),
    );
    const stored = await h.daemonSet(ns, 'surging');
    expect(stored.spec['updateStrategy']).toMatchObject({
      rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 },
    });
    await settled(ns, 'surging', h.nodes.length);
    const rec = await recordPods(h.client, ns);
    const listed = rec.snapshots.length;
    await h.setImage(ns, 'surging', 'nginx:1.29.0');
    await expect
      .poll(
        async () => (await pods(ns)).filter((p) => imageOf(p) === 'nginx:1.29.0').length,
        { timeout: 120_000 },
      )
      .toBe(h.nodes.length);
    await settled(ns, 'surging', h.nodes.length);
    expect(maxNodesWithoutReadyPod(rec, listed, h.nodes)).toBe(0);
    expect(maxPodsOnANode(rec, listed)).toBe(2);
  });
});
