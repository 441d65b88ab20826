/**
 * Pod writes of the upgrade: one update of the freshest pod (GET, change, write, retried on conflict — upstream
 * `retry.RetryOnConflict` around `Client.Update`) and the `SidecarSetUpgradable` condition (status patch).
 *
 * Where upstream PUTs the pod, the update goes out as one JSON patch from the pod read to the pod planned
 * (`updatePatch`): the pod read first is the cache's projection (docs/adr/0060-pod-projection.md), which a PUT would
 * strip of the fields it left out. The patch replaces `metadata.resourceVersion` with the version read, so a stale
 * pod is refused with 409 Conflict as the PUT was: one write per pod, the same retries.
 */
import { retryOnConflict, writeUpdatePatch } from '@regatta/kube';
import { type Pod, writePodConditions } from '@regatta/lifecycle';
import { upgradableCondition } from '../pod-upgrade.js';
import { POD, type UpgradeSync } from './context.js';

/**
 * Updates the pod with `change` applied to its latest version (the cached pod first, a GET after a conflict), as a
 * guarded patch from that version to the changed pod; returns what was written, or undefined when the
 * latest version needs nothing (`change` answers undefined: another writer got there first).
 */
export async function updatePod(
  s: UpgradeSync,
  pod: Pod,
  change: (fresh: Pod) => { pod: Pod; changed: string[] } | undefined,
): Promise<{ pod: Pod; changed: string[] } | undefined> {
  let first = true;
  let result: { pod: Pod; changed: string[] } | undefined;
  await retryOnConflict(async () => {
    const fresh = first
      ? pod
      : await s.d.client.get<Pod>({
          ...POD,
          namespace: pod.metadata?.namespace,
          name: pod.metadata?.name ?? '',
        });
    first = false;
    const next = change(fresh);
    result = undefined;
    if (!next) return;
    const out = await writeUpdatePatch(s.d.client, POD, fresh, next.pod);
    s.expectUpdated(out);
    result = { pod: out, changed: next.changed };
  });
  return result;
}

/** Sets this SidecarSet's entry of the pod's `SidecarSetUpgradable` condition (no write when unchanged). */
export async function writeUpgradable(s: UpgradeSync, pod: Pod, upgradable: boolean): Promise<void> {
  const condition = upgradableCondition(s.set, pod, upgradable, s.now());
  if (!condition) return;
  const out = await writePodConditions({ client: s.d.client }, pod, [condition]);
  s.expectUpdated(out);
}
