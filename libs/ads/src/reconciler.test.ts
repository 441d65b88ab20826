// The DaemonSet reconciler round by round: docs/ads.md "Rolling update" (OpenKruise/Kubernetes
// `daemon_controller_test.go`/`daemonset_update_test.go` `expectSyncDaemonSets(creates, deletes)` sequences on five
// nodes), the manage step's cases and the status.
import { describe, expect, it } from 'vitest';
import { type Obj, daemonSet, fiveNodes, node, world } from './testing/world.js';

const rollingUpdate = (ru: Record<string, unknown>) => ({
  updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru },
});

async function expectSyncs(w: ReturnType<typeof world>, counts: [number, number][]) {
  const seen: [number, number][] = [];
  for (let i = 0; i < counts.length; i++) {
    const r = await w.sync();
    seen.push([r.creates, r.deletes]);
  }
  expect(seen).toEqual(counts);
}

describe('DaemonSetReconciler rolling update steps', () => {
  it('UpdatesPods, maxUnavailable 2', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(rollingUpdate({ rollingUpdateType: 'Standard', maxUnavailable: 2, maxSurge: 0 })));
    await expectSyncs(w, [[5, 0]]);
    w.kubelet();
    w.setImage('nginx:2');
    await expectSyncs(w, [
      [0, 2],
      [2, 0],
    ]);
    w.kubelet();
    await expectSyncs(w, [
      [0, 2],
      [2, 0],
    ]);
    w.kubelet();
    await expectSyncs(w, [
      [0, 1],
      [1, 0],
    ]);
    w.kubelet();
    await expectSyncs(w, [[0, 0]]);
    expect(w.ds().status).toMatchObject({
      desiredNumberScheduled: 5,
      updatedNumberScheduled: 5,
      numberAvailable: 5,
      observedGeneration: 2,
    });
  });

  it('UpdatesPodsWithMaxSurge, maxSurge 2 (a table sync is manage then, on the cache that shows it, the rollout)', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(rollingUpdate({ rollingUpdateType: 'Standard', maxUnavailable: 0, maxSurge: 2 })));
    await expectSyncs(w, [[5, 0]]);
    w.kubelet();
    w.setImage('nginx:2');
    await expectSyncs(w, [
      [2, 0],
      [0, 0],
    ]);
    w.kubelet();
    await expectSyncs(w, [
      [2, 2],
      [0, 0],
    ]);
    w.kubelet();
    await expectSyncs(w, [
      [1, 2],
      [0, 0],
    ]);
    w.kubelet();
    await expectSyncs(w, [
      [0, 1],
      [0, 0],
    ]);
    expect(w.pods()).toHaveLength(5);
  });

  it('UpdatesWhenNewPodIsNotReady, maxUnavailable 3', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(rollingUpdate({ maxUnavailable: 3 })));
    await w.sync();
    w.kubelet();
    w.setImage('nginx:2');
    await expectSyncs(w, [
      [0, 3],
      [3, 0],
    ]);
    w.kubelet(false, (p) => p.spec?.containers?.[0]?.image === 'nginx:2');
    await expectSyncs(w, [[0, 0]]);
  });

  it('UpdatesAllOldPodsNotReady, maxUnavailable 3: unavailable old pods are all replaced at once', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(rollingUpdate({ maxUnavailable: 3 })));
    await w.sync();
    w.kubelet(false);
    w.setImage('nginx:2');
    await expectSyncs(w, [
      [0, 5],
      [5, 0],
      [0, 0],
    ]);
  });

  it('UpdatesAllOldPodsNotReadyMaxSurge, maxSurge 3', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(rollingUpdate({ maxUnavailable: 0, maxSurge: 3 })));
    await expectSyncs(w, [[5, 0]]);
    w.setImage('nginx:2');
    w.at(100_000);
    // old pods never ready: a new pod beside each at once
    await expectSyncs(w, [[5, 0]]);
    w.at(200_000);
    await expectSyncs(w, [[0, 5]]);
    w.kubelet();
    w.setImage('nginx:3', { minReadySeconds: 15 });
    w.at(300_000);
    await expectSyncs(w, [[3, 0]]);
  });

  it('UpdatesNoTemplateChanged: no pod churn', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(rollingUpdate({ maxUnavailable: 2 })));
    await w.sync();
    w.kubelet();
    await expectSyncs(w, [
      [0, 0],
      [0, 0],
    ]);
  });
});

describe('DaemonSetReconciler manage', () => {
  it('one pod per node the nodeSelector matches, bound by node affinity; status counts', async () => {
    const w = world([node('a', { color: 'blue' }), node('b'), node('c', { color: 'blue' })]);
    w.c.add(
      daemonSet({
        template: {
          metadata: { labels: { app: 'ds' } },
          spec: { nodeSelector: { color: 'blue' }, containers: [{ name: 'c', image: 'x' }] },
        },
      }),
    );
    await w.sync();
    const pods = w.pods();
    expect(pods).toHaveLength(2);
    const terms = pods.map(
      (p) =>
        (
          p.spec as {
            affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: unknown } };
          }
        ).affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution,
    );
    expect(terms).toEqual(
      expect.arrayContaining([
        { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a'] }] }] },
      ]),
    );
    expect(pods.every((p) => !p.spec?.nodeName)).toBe(true);
    expect(pods[0]!.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', controller: true });
    expect(w.events).toEqual(['SuccessfulCreate', 'SuccessfulCreate']);
    w.kubelet();
    await w.sync();
    expect(w.ds().status).toMatchObject({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: 2,
      numberAvailable: 2,
      numberUnavailable: 0,
      updatedNumberScheduled: 2,
      numberMisscheduled: 0,
      observedGeneration: 1,
    });
    // nothing changed: no status write
    const again = await w.sync();
    expect(again.writes).toEqual([]);
  });

  it('a relabelled node loses its pod; an untolerated NoExecute taint too; NoSchedule keeps it', async () => {
    const w = world([
      node('a', { color: 'blue' }),
      node('b', { color: 'blue' }),
      node('c', { color: 'blue' }),
    ]);
    w.c.add(
      daemonSet({
        template: {
          metadata: { labels: { app: 'ds' } },
          spec: { nodeSelector: { color: 'blue' }, containers: [{ name: 'c', image: 'x' }] },
        },
      }),
    );
    await w.sync();
    w.kubelet();
    w.c.add(
      node('a', { color: 'green' }),
      node('b', { color: 'blue' }, [{ key: 'k', effect: 'NoExecute' }]),
      node('c', { color: 'blue' }, [{ key: 'k', effect: 'NoSchedule' }]),
    );
    const r = await w.sync();
    expect([r.creates, r.deletes]).toEqual([0, 2]);
    expect(w.pods().map((p) => p.spec?.nodeName)).toEqual(['c']);
    await w.sync();
    expect(w.ds().status).toMatchObject({
      desiredNumberScheduled: 0,
      currentNumberScheduled: 0,
      numberMisscheduled: 1,
    });
  });

  it('a failed pod is deleted (FailedDaemonPod), then replaced', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet());
    await w.sync();
    const pod = w.pods()[0]!;
    w.c.add(<Obj>{ ...pod, status: { phase: 'Failed' } });
    const r = await w.sync();
    expect([r.creates, r.deletes]).toEqual([0, 1]);
    const r2 = await w.sync();
    expect([r2.creates, r2.deletes]).toEqual([1, 0]);
    // failing again at once: the node backs off (1 s, then 2 s) before the next deletion
    w.kubelet();
    const again = w.pods()[0]!;
    w.c.add(<Obj>{ ...again, status: { phase: 'Failed' } });
    w.tick(500);
    const held = await w.sync();
    expect([held.creates, held.deletes]).toEqual([0, 0]);
    expect(held.result.requeueAfterMs).toBe(500);
    w.tick(600);
    const freed = await w.sync();
    expect([freed.creates, freed.deletes]).toEqual([0, 1]);
    expect(w.events.filter((e) => e === 'FailedDaemonPod')).toHaveLength(2);
    expect(w.events).toContain('FailedDaemonPod');
  });

  it('duplicates on a node: the oldest stays', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet());
    await w.sync();
    const pod = w.pods()[0]!;
    w.c.add({
      ...pod,
      metadata: { ...pod.metadata, name: 'ds-dup', uid: 'dup', creationTimestamp: '2030-01-01T00:00:00Z' },
    });
    w.c.add({ ...pod, metadata: { ...pod.metadata, creationTimestamp: '2026-01-01T00:00:00Z' } });
    await w.sync();
    expect(w.pods().map((p) => p.metadata?.name)).toEqual([pod.metadata?.name]);
  });

  it('while a create is not yet in the cache: the status only, without observedGeneration, and a requeue', async () => {
    const w = world([node('a'), node('b')]);
    w.c.add(daemonSet());
    await w.sync();
    w.kubelet();
    await w.sync();
    w.setImage('nginx:2');
    w.expectations.expectScale(w.key, 'create', 'ds-pending');
    const r = await w.sync();
    expect([r.creates, r.deletes]).toEqual([0, 0]);
    expect(r.result.requeueAfterMs).toBeGreaterThan(0);
    expect(w.ds().status).toMatchObject({ observedGeneration: 1, desiredNumberScheduled: 2 });
    w.expectations.observeScale(w.key, 'create', 'ds-pending');
    const next = await w.sync();
    expect([next.creates, next.deletes]).toEqual([0, 1]);
    expect(w.ds().status).toMatchObject({ observedGeneration: 2 });
  });

  it('an invalid stored spec: InvalidSpec event, no pod touched', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet(rollingUpdate({ maxUnavailable: 1, maxSurge: 1 })));
    const r = await w.sync();
    expect(r.writes).toEqual([]);
    expect(w.events).toEqual(['InvalidSpec']);
  });

  it('an empty selector: SelectingAll, nothing else', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet({ selector: {} }));
    const r = await w.sync();
    expect(r.writes).toEqual([]);
    expect(w.events).toEqual(['SelectingAll']);
  });
});
