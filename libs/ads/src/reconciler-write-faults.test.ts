// The DaemonSet reconciler when a pod write of an in-place update is refused or loses its answer (docs/ads.md
// "Rolling update"; docs/adr/0061-writes-without-an-answer.md). Found by the reliability suite
// (docs/reliability-runs-r1-ao-bq.md run AQ): with API faults, a rollout with maxUnavailable 1 once had two nodes'
// pods unavailable.
import { ServerError, TooManyRequestsError } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { daemonSet, fiveNodes, world } from './testing/world.js';

const inPlace = {
  updateStrategy: {
    type: 'RollingUpdate',
    rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: 1 },
  },
};
const gateFalse = (p: Pod) =>
  p.status?.conditions?.some((c) => c.type === 'InPlaceUpdateReady' && c.status === 'False') ?? false;
/** Nodes whose pod the rollout has touched: a new image, or its in-place update begun. */
const touched = (pods: Pod[]) =>
  pods
    .filter((p) => gateFalse(p) || p.spec?.containers?.[0]?.image === 'nginx:2')
    .map((p) => p.spec?.nodeName)
    .sort();

/** Pods unavailable: Ready False, or the in-place readiness gate False. */
const unavailable = (pods: Pod[]) =>
  pods.filter(
    (p) => gateFalse(p) || p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False'),
  ).length;

async function readyRollout(w: ReturnType<typeof world>) {
  w.c.add(daemonSet(inPlace));
  for (let i = 0; i < 3; i++) {
    await w.sync();
    w.deliver();
    w.kubelet();
  }
  w.setImage('nginx:2');
}

describe('DaemonSetReconciler, an in-place update whose pod write fails', () => {
  it('refused after its status write went out: that pod holds the slot, no round takes another node', async () => {
    let refuse = false;
    const w = world(fiveNodes(), {
      patchAnswer: (_name, verb) => {
        if (verb !== 'patch' || !refuse) return undefined;
        refuse = false;
        return { err: new TooManyRequestsError({ status: 429, serverMessage: 'slow down' }), landed: false };
      },
    });
    await readyRollout(w);
    refuse = true;
    await expect(w.sync()).rejects.toThrow(TooManyRequestsError);
    const first = touched(w.pods());
    expect(first).toHaveLength(1);
    // the next rounds put the gate back (the update never went out), then update the same pod; the kubelet has not
    // turned Ready True meanwhile: never a second node
    for (let i = 0; i < 3; i++) {
      await w.sync();
      expect(unavailable(w.pods())).toBeLessThanOrEqual(1);
    }
    expect(touched(w.pods())).toEqual(first);
  });

  it('its status write answered 5xx but applied: the next round waits for the cache to show it, then the same node goes on', async () => {
    let lose = false;
    const w = world(fiveNodes(), {
      patchLag: true,
      patchAnswer: (_name, verb) => {
        if (verb !== 'patchStatus' || !lose) return undefined;
        lose = false;
        return {
          err: new ServerError({ status: 500, serverMessage: 'etcdserver: leader changed' }),
          landed: true,
        };
      },
    });
    await readyRollout(w);
    lose = true;
    await expect(w.sync()).rejects.toThrow(ServerError);
    const first = touched(w.pods());
    expect(first).toHaveLength(1);
    // the cache still shows the pod as it was: no write until it shows the status write
    const waiting = await w.sync();
    expect(waiting.writes.filter((x) => x.kind === 'Pod')).toEqual([]);
    expect(waiting.result).toMatchObject({ requeueAfterMs: expect.any(Number) });
    // then the refresh puts the gate back (the pod write never went out) and the same pod is updated
    for (let i = 0; i < 3; i++) {
      w.deliver();
      await w.sync();
      expect(unavailable(w.pods())).toBeLessThanOrEqual(1);
    }
    expect(touched(w.pods())).toEqual(first);
  });
});
