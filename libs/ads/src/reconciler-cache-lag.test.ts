// The DaemonSet reconciler when the pod cache lags its own creates (docs/ads.md "What it does", step 3): a round
// decides on pods read after the expectations gate, never before it. A pod created by the previous round may reach
// the cache at any moment, also while a round is between reading the pods and checking the gate; a round that read
// the pods first and then found the gate open would see that node empty and create a second pod on it (the transient
// second pod of the Standard rollout scenario, apps/ads/src/ads-rollout.int.test.ts). And a create whose answer was
// lost (timeout, no response, 5xx) is read back by its name before its expectation is dropped.
import { describe, expect, it } from 'vitest';
import { NetworkError, ServerError, TimeoutError } from '@regatta/kube';
import { daemonSet, fiveNodes, node, world } from './testing/world.js';
import { targetNodeName } from './planning/index.js';

type World = ReturnType<typeof world>;
type When = 'before the round' | 'during the round' | 'after the round';

/** One round with the undelivered pods reaching the cache at `when` ("during": at the round's first await). */
async function roundWithDelivery(w: World, when: When) {
  if (when === 'before the round') w.deliver();
  if (when === 'during the round') void Promise.resolve().then(w.deliver);
  const r = await w.sync();
  if (when === 'after the round') w.deliver();
  return r;
}

const podsPerNode = (w: World) => {
  const per = new Map<string, number>();
  for (const p of w.pods()) per.set(targetNodeName(p) ?? '', (per.get(targetNodeName(p) ?? '') ?? 0) + 1);
  return Math.max(...per.values());
};

const strategy = {
  updateStrategy: {
    type: 'RollingUpdate',
    rollingUpdate: { rollingUpdateType: 'Standard', maxUnavailable: 2, maxSurge: 0 },
  },
};

describe('DaemonSetReconciler with a lagging pod cache: one pod per node', () => {
  it.each<[When, number]>([
    // [when the created pods reach the cache, creates of that round]
    ['before the round', 0],
    ['during the round', 0],
    ['after the round', 0],
  ])('the first pods reach the cache %s: that round creates %i', async (when, creates) => {
    const w = world(fiveNodes(), { cacheLag: true });
    w.c.add(daemonSet(strategy));
    expect((await w.sync()).creates).toBe(5);
    expect((await roundWithDelivery(w, when)).creates).toBe(creates);
    w.deliver();
    expect((await w.sync()).creates).toBe(0);
    expect(w.pods()).toHaveLength(5);
    expect(podsPerNode(w)).toBe(1);
  });

  it.each<[When, number]>([
    ['before the round', 0],
    ['during the round', 0],
    ['after the round', 0],
  ])(
    'Standard rollout, a recreated pod reaches the cache %s: that round creates %i, never two pods on a node',
    async (when, creates) => {
      const w = world(fiveNodes(), { cacheLag: true });
      w.c.add(daemonSet(strategy));
      await w.sync();
      w.deliver();
      w.kubelet();
      w.setImage('nginx:2');
      expect((await w.sync()).deletes).toBe(2);
      // the deleted pods are gone: the next round recreates them, and the cache does not show the new ones yet
      expect((await w.sync()).creates).toBe(2);
      expect((await roundWithDelivery(w, when)).creates).toBe(creates);
      let max = podsPerNode(w);
      for (let i = 0; i < 12; i++) {
        w.deliver();
        w.kubelet();
        await w.sync();
        max = Math.max(max, podsPerNode(w));
      }
      expect(max).toBe(1);
      expect(w.pods()).toHaveLength(5);
      expect(w.pods().every((p) => p.spec?.containers?.[0]?.image === 'nginx:2')).toBe(true);
    },
  );
});

describe('DaemonSetReconciler, a pod create without a clear answer', () => {
  const timeout = () => new TimeoutError({ status: 0, serverMessage: 'the request timed out' });
  const network = () => new NetworkError({ status: 0, serverMessage: 'socket hang up' }, false);
  const server = () => new ServerError({ status: 500, serverMessage: 'etcdserver: leader changed' });
  it.each<[string, boolean, number, string[], () => Error]>([
    // [the error, the pod was created all the same, creates of the next round, events, the error's maker]
    ['timed out', true, 0, ['SuccessfulCreate', 'SuccessfulCreate'], timeout],
    ['no response', true, 0, ['SuccessfulCreate', 'SuccessfulCreate'], network],
    ['a 5xx', true, 0, ['SuccessfulCreate', 'SuccessfulCreate'], server],
    // not created: the slow start stops after the failed batch, and the next round creates both
    ['timed out', false, 2, ['FailedCreate', 'SuccessfulCreate', 'SuccessfulCreate'], timeout],
  ])('%s, created all the same %s: the next round creates %i', async (_what, landed, next, events, err) => {
    let first = true;
    const w = world([node('a'), node('b')], {
      cacheLag: true,
      createAnswer: () => {
        if (!first) return undefined;
        first = false;
        return { err: err(), landed };
      },
    });
    w.c.add(daemonSet(strategy));
    await w.sync().catch(() => undefined);
    w.deliver();
    expect((await w.sync()).creates).toBe(next);
    w.deliver();
    expect((await w.sync()).creates).toBe(0);
    expect(w.pods()).toHaveLength(2);
    expect(podsPerNode(w)).toBe(1);
    expect([...w.events].sort()).toEqual([...events].sort());
  });
});
