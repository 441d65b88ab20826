// More of OpenKruise's e2e scenarios for Advanced StatefulSet (test/e2e/apps/v1beta1/statefulset.go) and
// S1 §3.2 on the shared local cluster: specified delete, the in-place grace period, rollback, adoption of orphans.
import { describe, expect, it } from 'vitest';
import { imageOf, recordPods } from '@regatta/testing';
import { type Pod, POD, demo, isReady, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios();
const { namespace, pods, get, setImage, settled } = h;

const byName = (list: Pod[], name: string) => list.find((p) => p.metadata!.name === name);

describe('Advanced StatefulSet e2e', () => {
  it('specified delete: a labelled pod is recreated under its name, without the label', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 3;
    await h.create(sts);
    await settled(ns, 'web', 3);
    const before = byName(await pods(ns), 'web-1')!.metadata!.uid;
    await h.client.patch(
      { ...POD, namespace: ns, name: 'web-1' },
      { metadata: { labels: { 'apps.kruise.io/specified-delete': 'true' } } },
      { type: 'merge' },
    );
    await expect
      .poll(
        async () => {
          const p = byName(await pods(ns), 'web-1');
          return p !== undefined && p.metadata!.uid !== before && isReady(p);
        },
        { timeout: 60_000, interval: 300 },
      )
      .toBe(true);
    const after = byName(await pods(ns), 'web-1')!;
    expect(after.metadata!.labels!['apps.kruise.io/specified-delete']).toBeUndefined();
    await settled(ns, 'web', 3);
  });

  it('in-place grace period (S1 §3.2, gracePeriodSeconds 10): not ready first, the image changes ≥ 10 s later', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: {
        podUpdatePolicy: 'InPlaceIfPossible',
        maxUnavailable: 3,
        inPlaceUpdateStrategy: { gracePeriodSeconds: 10 },
      },
    };
    sts.spec['template'] = {
      metadata: { labels: { app: 'web' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [{ name: 'nginx', image: 'nginx:1.25' }],
      },
    };
    await h.create(sts);
    await settled(ns, 'web', 2);
    const uids = (await pods(ns)).map((p) => p.metadata!.uid).sort();
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'web', 'nginx:1.27');
    await settled(ns, 'web', 2, 90_000);
    expect((await pods(ns)).map((p) => p.metadata!.uid).sort()).toEqual(uids);
    for (const uid of uids) {
      const seen = rec.of(uid!);
      const notReady = seen.find((s) =>
        s.pod.status?.conditions?.some((c) => c.type === 'InPlaceUpdateReady' && c.status === 'False'),
      );
      const changed = seen.find((s) => imageOf(s.pod) === 'nginx:1.27');
      expect(notReady).toBeDefined();
      expect(imageOf(notReady!.pod)).toBe('nginx:1.25');
      expect(changed!.at - notReady!.at).toBeGreaterThanOrEqual(9_000);
    }
  });

  it('rollback: the old template again brings the pods back to the old revision (reused, not a new one)', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 3;
    await h.create(sts);
    const first = await settled(ns, 'web', 3);
    await setImage(ns, 'web', 'nginx:1.27');
    await settled(ns, 'web', 3, 90_000);
    await setImage(ns, 'web', 'nginx:1.25');
    const back = await settled(ns, 'web', 3, 90_000);
    expect(back.status!.updateRevision).toBe(first.status!.updateRevision);
    expect((await pods(ns)).map(imageOf)).toEqual(['nginx:1.25', 'nginx:1.25', 'nginx:1.25']);
  });

  it('an orphan pod named <set>-<ordinal> that matches the selector is adopted, not replaced', async () => {
    const ns = await namespace();
    const orphan = await h.client.create<Pod>({
      ...POD,
      metadata: { name: 'web-0', namespace: ns, labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
    } as Pod);
    const sts = demo(ns, 'web');
    sts.spec.replicas = 2;
    sts.spec.podManagementPolicy = 'OrderedReady';
    sts.spec.updateStrategy = { type: 'OnDelete' };
    await h.create(sts);
    await expect
      .poll(async () => byName(await pods(ns), 'web-0')?.metadata?.ownerReferences?.[0]?.name, {
        timeout: 60_000,
      })
      .toBe('web');
    expect(byName(await pods(ns), 'web-0')!.metadata!.uid).toBe(orphan.metadata!.uid);
    await expect.poll(async () => (await pods(ns)).length, { timeout: 60_000 }).toBe(2);
    // the status counts what the cache shows: it follows shortly after the pod
    await expect.poll(async () => (await get(ns, 'web')).status?.replicas, { timeout: 30_000 }).toBe(2);
    expect(byName(await pods(ns), 'web-0')!.metadata!.uid).toBe(orphan.metadata!.uid);
  });

  it('inPlaceUpdate hook (label): PreparingUpdate until released, then in place, Updated until hooked again, Normal', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 1;
    sts.spec['lifecycle'] = { inPlaceUpdate: { labelsHandler: { 'example.com/hold': 'true' } } };
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 },
    };
    sts.spec['template'] = {
      metadata: { labels: { app: 'web', 'example.com/hold': 'true' } },
      spec: {
        readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
        containers: [{ name: 'nginx', image: 'nginx:1.25' }],
      },
    };
    await h.create(sts);
    await settled(ns, 'web', 1);
    const state = async () => (await pods(ns))[0]?.metadata?.labels?.['lifecycle.apps.kruise.io/state'];
    await setImage(ns, 'web', 'nginx:1.27');
    await expect.poll(state, { timeout: 30_000 }).toBe('PreparingUpdate');
    expect(imageOf((await pods(ns))[0]!)).toBe('nginx:1.25');
    const setHold = (value: string | null) =>
      h.client.patch(
        { ...POD, namespace: ns, name: 'web-0' },
        { metadata: { labels: { 'example.com/hold': value } } },
        { type: 'merge' },
      );
    await setHold(null);
    await expect.poll(state, { timeout: 60_000 }).toBe('Updated');
    expect(imageOf((await pods(ns))[0]!)).toBe('nginx:1.27');
    await setHold('true');
    await expect.poll(state, { timeout: 30_000 }).toBe('Normal');
    await settled(ns, 'web', 1);
  });
});
