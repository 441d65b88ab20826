// What a rollout must never show, read back from a pod recorder (every version of the namespace's pods a watch
// delivered): the most nodes at once without a ready, live pod, and the most live pods at once on one node.
import type { PodRecorder } from '@regatta/testing';
import { isReady, nodeOf, type Pod } from './scenario-harness.js';

function replay(rec: PodRecorder, each: (live: Pod[]) => void): void {
  const latest = new Map<string, Pod>();
  for (const s of rec.snapshots) {
    latest.set(s.pod.metadata?.uid ?? '', s.pod);
    each([...latest.values()].filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Failed'));
  }
}

/** The most nodes (of `nodes`) at once whose pods were all not ready or gone. */
export function maxNodesWithoutReadyPod(rec: PodRecorder, nodes: readonly string[]): number {
  let max = 0;
  replay(rec, (live) => {
    const ready = new Set(live.filter(isReady).map(nodeOf));
    max = Math.max(max, nodes.filter((n) => !ready.has(n)).length);
  });
  return max;
}

/** The most live pods at once on any one node. */
export function maxPodsOnANode(rec: PodRecorder): number {
  let max = 0;
  replay(rec, (live) => {
    const per = new Map<string, number>();
    for (const p of live) per.set(nodeOf(p), (per.get(nodeOf(p)) ?? 0) + 1);
    max = Math.max(max, ...per.values(), 0);
  });
  return max;
}
