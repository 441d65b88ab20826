// The DaemonSet reconciler round by round, continued: InPlaceIfPossible, partition and rollingUpdate.selector,
// paused, partitioned scaling, the preDelete hook, OnDelete, revision history (docs/ads.md).
import { describe, expect, it } from 'vitest';
import { type Obj, daemonSet, fiveNodes, node, world } from './testing/world.js';

const ru = (r: Record<string, unknown>, type = 'RollingUpdate') => ({
  updateStrategy: { type, rollingUpdate: r },
});
const images = (w: ReturnType<typeof world>) =>
  w
    .pods()
    .map((p) => `${p.spec?.nodeName}:${p.spec?.containers?.[0]?.image}`)
    .sort();

async function settle(w: ReturnType<typeof world>, rounds = 12) {
  for (let i = 0; i < rounds; i++) {
    await w.sync();
    w.kubelet();
  }
}

describe('DaemonSetReconciler, rollout strategies', () => {
  it('InPlaceIfPossible: image change updates pods in place (same UIDs), InPlaceUpdateReady gate, events', async () => {
    const w = world(fiveNodes());
    w.c.add(daemonSet(ru({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 2 })));
    await settle(w, 2);
    const uids = w
      .pods()
      .map((p) => p.metadata?.uid)
      .sort();
    expect(
      w.pods().every((p) => p.spec?.readinessGates?.some((g) => g.conditionType === 'InPlaceUpdateReady')),
    ).toBe(true);
    w.setImage('nginx:2');
    const first = await w.sync();
    expect([first.creates, first.deletes]).toEqual([0, 0]);
    expect(w.pods().filter((p) => p.spec?.containers?.[0]?.image === 'nginx:2')).toHaveLength(2);
    await settle(w);
    expect(images(w)).toEqual(['node-0', 'node-1', 'node-2', 'node-3', 'node-4'].map((n) => `${n}:nginx:2`));
    expect(
      w
        .pods()
        .map((p) => p.metadata?.uid)
        .sort(),
    ).toEqual(uids);
    expect(w.events.filter((e) => e === 'SuccessfulUpdatePodInPlace')).toHaveLength(5);
    expect(w.ds().status).toMatchObject({ updatedNumberScheduled: 5, numberAvailable: 5 });
  });

  it('InPlaceIfPossible with a change that cannot be done in place recreates the pod', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet(ru({ rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 })));
    await settle(w, 2);
    const ds = w.ds();
    const tpl = (ds.spec as { template: { spec: Record<string, unknown> } }).template;
    w.c.add(<Obj>{
      ...ds,
      spec: { ...ds.spec, template: { ...tpl, spec: { ...tpl.spec, hostNetwork: true } } },
    });
    const r = await w.sync();
    expect([r.creates, r.deletes]).toEqual([0, 1]);
  });

  it('partition 3 with a node selector: only selected nodes, and nodes already updated count', async () => {
    const nodes = [
      node('node-0', { canary: 'true' }),
      node('node-1'),
      node('node-2', { canary: 'true' }),
      node('node-3'),
      node('node-4'),
    ];
    const w = world(nodes);
    w.c.add(
      daemonSet(ru({ maxUnavailable: 5, partition: 3, selector: { matchLabels: { canary: 'true' } } })),
    );
    await settle(w, 2);
    w.setImage('nginx:2');
    await settle(w);
    expect(images(w).filter((x) => x.endsWith('nginx:2'))).toEqual(['node-0:nginx:2', 'node-2:nginx:2']);
    // partition 4: one node only, but two are already updated: nothing more, nothing rolled back
    const ds = w.ds();
    w.c.add(<Obj>{ ...ds, spec: { ...ds.spec, ...ru({ maxUnavailable: 5, partition: 0 }) } });
    await settle(w);
    expect(images(w).every((x) => x.endsWith('nginx:2'))).toBe(true);
  });

  it('paused: the rollout stops, pods are still created on new nodes', async () => {
    const w = world([node('a'), node('b')]);
    w.c.add(daemonSet(ru({ maxUnavailable: 2, paused: true })));
    await settle(w, 2);
    w.setImage('nginx:2');
    await settle(w, 4);
    expect(images(w)).toEqual(['a:nginx:1', 'b:nginx:1']);
    w.c.add(node('c'));
    await settle(w, 2);
    expect(images(w)).toEqual(['a:nginx:1', 'b:nginx:1', 'c:nginx:2']);
    expect(w.ds().status).toMatchObject({ desiredNumberScheduled: 3, updatedNumberScheduled: 1 });
  });

  it('partitioned scaling: with partition 2 of 3 nodes, only one pod is created', async () => {
    const w = world([node('a'), node('b'), node('c')]);
    w.c.add(
      daemonSet({ ...ru({ maxUnavailable: 1, partition: 2 }), scaleStrategy: { partitionedScaling: true } }),
    );
    // the first round writes the status (desiredNumberScheduled) the partition scales on
    w.c.add(<Obj>{ ...w.ds(), status: { desiredNumberScheduled: 3 } });
    await settle(w, 3);
    expect(w.pods()).toHaveLength(1);
  });

  it('OnDelete: a template change replaces nothing; a deleted pod comes back new', async () => {
    const w = world([node('a'), node('b')]);
    w.c.add(daemonSet({ updateStrategy: { type: 'OnDelete' } }));
    await settle(w, 2);
    w.setImage('nginx:2');
    await settle(w, 3);
    expect(images(w)).toEqual(['a:nginx:1', 'b:nginx:1']);
    const victim = w.pods().find((p) => p.spec?.nodeName === 'a')!;
    await w.c.writer.delete({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: victim.metadata!.name! });
    await settle(w, 2);
    expect(images(w)).toEqual(['a:nginx:2', 'b:nginx:1']);
  });
});

describe('DaemonSetReconciler, gate DaemonSetPruneIneligibleNodes', () => {
  const tainted = (n: string) => node(n, {}, [{ key: 'k', effect: 'NoSchedule' }]);
  it('on: a pod on a node that should no longer run the daemon is deleted by the rollout, outside its budget', async () => {
    const w = world([node('a'), node('b')], { gates: { DaemonSetPruneIneligibleNodes: true } });
    w.c.add(daemonSet(ru({ maxUnavailable: 1 })));
    await settle(w, 2);
    w.c.add(tainted('a'));
    w.setImage('nginx:2');
    const first = await w.sync();
    // a's pod (pruned) and b's old pod (the budget of 1) go in the same round
    expect([first.creates, first.deletes]).toEqual([0, 2]);
    await settle(w, 4);
    expect(images(w)).toEqual(['b:nginx:2']);
  });
});

describe('DaemonSetReconciler, preDelete hook and history', () => {
  it('a hooked pod goes to PreparingDelete and stays until the hook is released, one at a time', async () => {
    const w = world([node('a'), node('b')]);
    w.c.add(
      daemonSet({
        ...ru({ maxUnavailable: 1 }),
        lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } },
      }),
    );
    await settle(w, 2);
    for (const p of w.pods())
      w.c.add({ ...p, metadata: { ...p.metadata, labels: { ...p.metadata?.labels, hold: 'true' } } });
    w.setImage('nginx:2');
    await settle(w, 4);
    const states = w.pods().map((p) => p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] ?? '');
    expect(states.sort()).toEqual(['', 'PreparingDelete']);
    expect(w.c.written('delete', 'Pod')).toHaveLength(0);
    const held = w
      .pods()
      .find((p) => p.metadata?.labels?.['lifecycle.apps.kruise.io/state'] === 'PreparingDelete')!;
    const { hold: _hold, ...labels } = held.metadata!.labels!;
    w.c.add({ ...held, metadata: { ...held.metadata, labels } });
    await settle(w, 4);
    expect(w.c.written('delete', 'Pod')).toHaveLength(1);
    expect(images(w).filter((x) => x.endsWith('nginx:2'))).toHaveLength(1);
  });

  it('rollback to an earlier template renumbers its revision (no new one, no CloneSet annotation)', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet(ru({ maxUnavailable: 1 })));
    await settle(w, 2);
    const first = w.ds().status?.['updateRevision'];
    w.setImage('nginx:2');
    await settle(w, 4);
    w.setImage('nginx:1');
    await settle(w, 4);
    const revisions = w.c.all<{ revision?: number } & Obj>('ControllerRevision');
    expect(revisions).toHaveLength(2);
    expect(w.ds().status?.['updateRevision']).toBe(first);
    const back = revisions.find((r) => r.metadata?.name === `ds-${String(first)}`)!;
    expect(back.revision).toBe(3);
    expect(Object.keys(back.metadata?.annotations ?? {})).not.toContain(
      'kruise.io/cloneset-volumeclaimtemplate-hash',
    );
  });

  it('revisions: one per template, pods labelled with its hash, history beyond the limit truncated', async () => {
    const w = world([node('a')]);
    w.c.add(daemonSet({ ...ru({ maxUnavailable: 1 }), revisionHistoryLimit: 1 }));
    await settle(w, 2);
    for (const image of ['nginx:2', 'nginx:3', 'nginx:4']) {
      w.setImage(image);
      await settle(w, 4);
    }
    const revisions = w.c.all('ControllerRevision');
    expect(revisions).toHaveLength(2);
    const hash = w.ds().status?.['updateRevision'] as string;
    // the v1alpha1 name too: clients reading through v1alpha1 see status.daemonSetHash (no conversion webhook)
    expect(w.ds().status?.['daemonSetHash']).toBe(hash);
    expect(revisions.map((r) => r.metadata?.name)).toContain(`ds-${hash}`);
    expect(w.pods().map((p) => p.metadata?.labels?.['controller-revision-hash'])).toEqual([hash]);
  });
});
