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
  // a pod removed is recorded as a last version marked deleted: a deletion with no grace period sends no version with
  // a deletionTimestamp, and one that happened while the watch was re-listing sends no event at all
  const gone = (pod: Pod) =>
    keep(
      pod.metadata?.deletionTimestamp
        ? pod
        : { ...pod, metadata: { ...pod.metadata, deletionTimestamp: new Date().toISOString() } },
    );
  const live = () => {
    const last = new Map<string, Pod>();
    for (const s of snapshots) last.set(s.pod.metadata?.uid ?? '', s.pod);
    return [...last.values()].filter((p) => !p.metadata?.deletionTimestamp);
  };
  const watcher = new ListWatcher<Pod>(
    client,
    { group: '', version: 'v1', kind: 'Pod', plural: 'pods' },
    {
      onList: async (items) => {
        const listedUids = new Set(items.map((p) => p.metadata?.uid));
        live()
          .filter((p) => !listedUids.has(p.metadata?.uid))
          .forEach(gone);
        items.forEach(keep);
        listed();
      },
      onUpsert: async (pod) => keep(pod),
      onDelete: async (pod) => gone(pod),
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
