// What a rollout must never show, read back from a pod recorder (every version of the namespace's pods a watch
// delivered): the most nodes at once without a ready, live pod, and the most live pods at once on one node.
import type { PodRecorder } from '@regatta/testing';
import { isReady, nodeOf, type Pod } from './scenario-harness.js';

/**
 * Replays the recorded versions, judging the state after each one; the first `listed` snapshots (the watch's initial
 * list, arriving one by one) are judged only together.
 */
function replay(rec: PodRecorder, listed: number, each: (live: Pod[]) => void): void {
  const latest = new Map<string, Pod>();
  for (const [i, s] of rec.snapshots.entries()) {
    latest.set(s.pod.metadata?.uid ?? '', s.pod);
    if (i + 1 < listed) continue;
    each([...latest.values()].filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Failed'));
  }
}

/** The most nodes (of `nodes`) at once whose pods were all not ready or gone. */
export function maxNodesWithoutReadyPod(rec: PodRecorder, listed: number, nodes: readonly string[]): number {
  let max = 0;
  replay(rec, listed, (live) => {
    const ready = new Set(live.filter(isReady).map(nodeOf));
    max = Math.max(max, nodes.filter((n) => !ready.has(n)).length);
  });
  return max;
}

/** The most live pods at once on any one node. */
export function maxPodsOnANode(rec: PodRecorder, listed: number): number {
  let max = 0;
  replay(rec, listed, (live) => {
    const per = new Map<string, number>();
    for (const p of live) per.set(nodeOf(p), (per.get(nodeOf(p)) ?? 0) + 1);
    max = Math.max(max, ...per.values(), 0);
  });
  return max;
}
