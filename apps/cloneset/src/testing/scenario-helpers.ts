// Small helpers the CloneSet scenario files share: well-known keys, readers of what a pod shows, a "nothing
// happens" window, and a pod recorder that sees every version of the namespace's pods through a watch.
import { afterEach } from 'vitest';
import { type KubeClient, ListWatcher } from '@regatta/kube';
import type { Pod } from './scenario-harness.js';

export const STATE = 'lifecycle.apps.kruise.io/state';
export const REVISION = 'controller-revision-hash';
export const INSTANCE_ID = 'apps.kruise.io/cloneset-instance-id';
export const INPLACE_STATE = 'apps.kruise.io/inplace-update-state';
export const INPLACE_GRACE = 'apps.kruise.io/inplace-update-grace';
export const RUNTIME_META = 'apps.kruise.io/runtime-containers-meta';
export const SPECIFIED_DELETE = 'apps.kruise.io/specified-delete';
export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

export const uidOf = (o: { metadata?: { uid?: string } }): string => o.metadata!.uid!;
export const nameOf = (o: { metadata?: { name?: string } }): string => o.metadata!.name!;
export const stateOf = (p: Pod): string | undefined => p.metadata?.labels?.[STATE];
export const conditionOf = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);
export const containerStatus = (p: Pod, name: string) =>
  p.status?.containerStatuses?.find((c) => c.name === name);
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Asserts `check` on every sample for `ms` (a "nothing happens" window); returns the last sample's value. */
export async function holds<T>(ms: number, sample: () => Promise<T>, check: (v: T) => void): Promise<T> {
  const end = Date.now() + ms;
  let last = await sample();
  check(last);
  while (Date.now() < end) {
    await sleep(300);
    last = await sample();
    check(last);
  }
  return last;
}

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
