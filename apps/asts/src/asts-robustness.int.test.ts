// Fault scenarios on the shared local cluster: the asts program killed with SIGKILL in the middle of a Parallel
// rollout (maxUnavailable 2, ReCreate); another instance takes over the Lease and completes it — each pod replaced
// exactly once (no extra creates or deletes) and never more than maxUnavailable pods unavailable at once.
import { describe, expect, it } from 'vitest';
import { imageOf, recordPods, type PodRecorder } from '@regatta/testing';
import { type Pod, demo, isReady, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios();

/** The most pods unavailable (missing, terminating or not ready) at any moment the watch saw, of `names`. */
function maxUnavailableSeen(rec: PodRecorder, names: string[]): number {
  const latest = new Map<string, Pod>();
  let max = 0;
  for (const s of [...rec.snapshots].sort((a, b) => a.at - b.at)) {
    latest.set(s.pod.metadata!.name!, s.pod);
    if (names.some((n) => !latest.has(n))) continue; // before the first full picture
    const unavailable = names.filter((n) => {
      const p = latest.get(n)!;
      return Boolean(p.metadata?.deletionTimestamp) || !isReady(p);
    }).length;
    max = Math.max(max, unavailable);
  }
  return max;
}

describe('Advanced StatefulSet robustness', () => {
  it('kill -9 mid-rollout: the next instance completes it; every pod replaced once; maxUnavailable held', async () => {
    const ns = await h.namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 6;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: 2, podUpdatePolicy: 'ReCreate' },
    };
    await h.create(sts);
    await h.settled(ns, 'web', 6);
    const names = (await h.pods(ns)).map((p) => p.metadata!.name!).sort();
    const rec = await recordPods(h.client, ns);
    await h.setImage(ns, 'web', 'nginx:1.27');
    // somewhere in the middle: at least one pod replaced, not all
    await expect
      .poll(async () => (await h.get(ns, 'web')).status?.updatedReplicas ?? 0, {
        timeout: 60_000,
        interval: 200,
      })
      .toBeGreaterThanOrEqual(1);
    h.controller.killNow();
    await h.startController('b');
    await h.settled(ns, 'web', 6, 120_000);
    const uidsByName = new Map<string, Set<string>>();
    for (const s of rec.snapshots) {
      const set = uidsByName.get(s.pod.metadata!.name!) ?? new Set<string>();
      set.add(s.pod.metadata!.uid!);
      uidsByName.set(s.pod.metadata!.name!, set);
    }
    expect([...uidsByName.keys()].sort()).toEqual(names);
    for (const n of names) expect(uidsByName.get(n)!.size, n).toBe(2);
    expect(maxUnavailableSeen(rec, names)).toBeLessThanOrEqual(2);
    expect((await h.pods(ns)).every((p) => imageOf(p) === 'nginx:1.27')).toBe(true);
  });
});
