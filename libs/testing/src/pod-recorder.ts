// A pod recorder: every version of a namespace's pods a watch delivers, so no intermediate state is missed by
// polling.
import { afterEach } from 'vitest';
import { type KubeClient, ListWatcher } from '@regatta/kube';
import { stateOf, type Pod } from './pods.js';

/** Every version of the namespace's pods a watch delivers, with the time it arrived. */
export interface PodRecorder {
  readonly snapshots: { at: number; pod: Pod }[];
  /** The snapshots of one pod (by UID), in order. */
  of(uid: string): { at: number; pod: Pod }[];
  /** The distinct lifecycle states one pod went through, in order. */
  states(uid: string): string[];
  stop(): Promise<void>;
}

const recorders: PodRecorder[] = [];
afterEach(async () => {
  for (const r of recorders.splice(0)) await r.stop();
});

/** Starts a pod watch (cluster-wide, kept for `ns`), stopped after the test; resolves once its first list is in. */
export async function recordPods(client: KubeClient, ns: string): Promise<PodRecorder> {
  const snapshots: { at: number; pod: Pod }[] = [];
  let listed: () => void = () => undefined;
  const ready = new Promise<void>((r) => (listed = r));
  const keep = (pod: Pod) => {
    if (pod.metadata?.namespace === ns) snapshots.push({ at: Date.now(), pod });
  };
  const watcher = new ListWatcher<Pod>(
    client,
    { group: '', version: 'v1', kind: 'Pod', plural: 'pods' },
    {
      onList: async (items) => {
        items.forEach(keep);
        listed();
      },
      onUpsert: async (pod) => keep(pod),
      onDelete: async () => undefined,
    },
  );
  watcher.start();
  await ready;
  const of = (uid: string) => snapshots.filter((s) => s.pod.metadata?.uid === uid);
  const recorder: PodRecorder = {
    snapshots,
    of,
    states: (uid) =>
      of(uid)
        .map((s) => stateOf(s.pod) ?? '')
        .filter((st, i, all) => i === 0 || st !== all[i - 1]),
    stop: () => watcher.stop(),
  };
  recorders.push(recorder);
  return recorder;
}
