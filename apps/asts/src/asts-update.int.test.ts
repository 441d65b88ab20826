// Advanced StatefulSet update and scale strategies on the shared local cluster (S1 §3): Parallel
// recreate within maxUnavailable, paused, OnDelete, scaleStrategy.maxUnavailable, the in-place grace period, env
// from labels updated in place, and the preDelete hook.
import { describe, expect, it } from 'vitest';
import { holds, imageOf, recordPods } from '@regatta/testing';
import { type Pod, POD, demo, isReady, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios();
const { namespace, pods, get, setImage, settled } = h;

const names = (list: Pod[]) => list.map((p) => p.metadata!.name!).sort();

describe('Advanced StatefulSet updates', () => {
  it('Parallel + maxUnavailable 3 (ReCreate): three pods replaced at once, never more than three unavailable', async () => {
    const ns = await namespace();
    await h.create(demo(ns, 'web'));
    await settled(ns, 'web', 5);
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'web', 'nginx:1.27');
    await settled(ns, 'web', 5, 120_000);
    // the first three deletions came together (web-4, web-3, web-2), before any replacement was ready
    const deletions = new Map<string, number>();
    for (const s of rec.snapshots) {
      const n = s.pod.metadata!.name!;
      if (s.pod.metadata?.deletionTimestamp && !deletions.has(n)) deletions.set(n, s.at);
    }
    const order = [...deletions.entries()].sort((a, b) => a[1] - b[1]).map(([n]) => n);
    expect(order.slice(0, 3).sort()).toEqual(['web-2', 'web-3', 'web-4']);
    expect(order.length).toBe(5);
    expect((await pods(ns)).every((p) => imageOf(p) === 'nginx:1.27')).toBe(true);
  });

  it('paused: existing pods keep the old image, scaling still happens and new pods get the new one', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    await h.create(sts);
    await settled(ns, 'web', 2);
    await h.patch(ns, 'web', { spec: { updateStrategy: { rollingUpdate: { paused: true } } } });
    await setImage(ns, 'web', 'nginx:1.27');
    await h.patch(ns, 'web', { spec: { replicas: 3 } });
    await expect.poll(async () => (await pods(ns)).filter(isReady).length, { timeout: 60_000 }).toBe(3);
    await holds(
      3_000,
      () => pods(ns),
      (list) => {
        expect(Object.fromEntries(list.map((p) => [p.metadata!.name, imageOf(p)]))).toEqual({
          'web-0': 'nginx:1.25',
          'web-1': 'nginx:1.25',
          'web-2': 'nginx:1.27',
        });
      },
    );
    await h.patch(ns, 'web', { spec: { updateStrategy: { rollingUpdate: { paused: false } } } });
    await settled(ns, 'web', 3, 90_000);
  });

  it('OnDelete: pods keep their revision until deleted; a deleted pod comes back at the update revision', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    sts.spec.updateStrategy = { type: 'OnDelete' };
    await h.create(sts);
    await settled(ns, 'web', 2);
    await setImage(ns, 'web', 'nginx:1.27');
    await holds(
      3_000,
      () => pods(ns),
      (list) => expect(list.map(imageOf)).toEqual(['nginx:1.25', 'nginx:1.25']),
    );
    await h.client.delete({ ...POD, namespace: ns, name: 'web-1' });
    await expect
      .poll(
        async () =>
          Object.fromEntries((await pods(ns)).filter(isReady).map((p) => [p.metadata!.name, imageOf(p)])),
        { timeout: 60_000 },
      )
      .toEqual({ 'web-0': 'nginx:1.25', 'web-1': 'nginx:1.27' });
    // counters may be written up to one status write interval later (docs/adr/0050)
    await expect
      .poll(async () => (await get(ns, 'web')).status, { timeout: 10_000 })
      .toMatchObject({ updatedReplicas: 1, currentReplicas: 1 });
  });

  it('scaleStrategy.maxUnavailable 2 (Parallel, 3 → 6): at most two pods not ready while scaling', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 3;
    sts.spec['scaleStrategy'] = { maxUnavailable: 2 };
    await h.create(sts);
    await settled(ns, 'web', 3);
    const rec = await recordPods(h.client, ns);
    await h.patch(ns, 'web', { spec: { replicas: 6 } });
    await settled(ns, 'web', 6);
    const latest = new Map<string, Pod>();
    let worst = 0;
    for (const s of [...rec.snapshots].sort((a, b) => a.at - b.at)) {
      latest.set(s.pod.metadata!.name!, s.pod);
      worst = Math.max(worst, [...latest.values()].filter((p) => !isReady(p)).length);
    }
    expect(worst).toBeLessThanOrEqual(2);
    expect(names(await pods(ns))).toEqual(['web-0', 'web-1', 'web-2', 'web-3', 'web-4', 'web-5']);
  });

  it('env from a template label is updated in place (UID kept); a resources change recreates the pod', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 1;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 },
    };
    sts.spec['template'] = {
      metadata: { labels: { app: 'web', version: 'v1' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.25',
            env: [{ name: 'VERSION', valueFrom: { fieldRef: { fieldPath: "metadata.labels['version']" } } }],
          },
        ],
      },
    };
    await h.create(sts);
    await settled(ns, 'web', 1);
    const uid = (await pods(ns))[0]!.metadata!.uid;
    await h.patch(ns, 'web', { spec: { template: { metadata: { labels: { app: 'web', version: 'v2' } } } } });
    await settled(ns, 'web', 1, 90_000);
    const after = (await pods(ns))[0]!;
    expect(after.metadata!.uid).toBe(uid);
    expect(after.metadata!.labels!['version']).toBe('v2');

    await h.client.patch(
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', namespace: ns, name: 'web' },
      [
        {
          op: 'add',
          path: '/spec/template/spec/containers/0/resources',
          value: { requests: { cpu: '10m' } },
        },
      ],
      { type: 'json' },
    );
    await settled(ns, 'web', 1, 90_000);
    expect((await pods(ns))[0]!.metadata!.uid).not.toBe(uid);
  });

  it('preDelete hook (label): a scaled-in pod waits in PreparingDelete until the label is removed', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    sts.spec['lifecycle'] = { preDelete: { labelsHandler: { 'example.com/hold': 'true' } } };
    (sts.spec['template'] as { metadata: { labels: Record<string, string> } }).metadata.labels[
      'example.com/hold'
    ] = 'true';
    await h.create(sts);
    await settled(ns, 'web', 2);
    await h.patch(ns, 'web', { spec: { replicas: 1 } });
    await expect
      .poll(
        async () =>
          (await pods(ns)).find((p) => p.metadata!.name === 'web-1')?.metadata?.labels?.[
            'lifecycle.apps.kruise.io/state'
          ],
        { timeout: 30_000 },
      )
      .toBe('PreparingDelete');
    await holds(
      2_000,
      () => pods(ns),
      (list) => expect(names(list)).toEqual(['web-0', 'web-1']),
    );
    await h.client.patch(
      { ...POD, namespace: ns, name: 'web-1' },
      { metadata: { labels: { 'example.com/hold': null } } },
      { type: 'merge' },
    );
    await expect.poll(async () => names(await pods(ns)), { timeout: 30_000 }).toEqual(['web-0']);
  });
});
