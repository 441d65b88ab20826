/**
 * Step 7: upgrade the next pods (OpenKruise `Processor.updatePods`): not-upgradable pods get their condition and
 * one event, the chosen ones their new sidecar images in one pod UPDATE each, then `SidecarSetUpgradable=True`. Each
 * pod's writes go in order; up to POD_WRITE_CONCURRENCY pods are written at once (upstream writes one pod after the
 * other, which makes a round of N pods take N write round trips).
 */
import type { Pod } from '@regatta/lifecycle';
import { POD_WRITE_CONCURRENCY, forEachLimited } from '@regatta/runtime';
import { NOT_UPGRADABLE_PODS_REASON } from '../keys.js';
import { getNextUpgradePods } from '../next-upgrade.js';
import { isPodSidecarUpdated } from '../pod-state.js';
import { upgradePodSidecars } from '../pod-upgrade.js';
import type { UpgradeSync } from './context.js';
import { updatePod, writeUpgradable } from './pod-writes.js';

/** The pods upgraded (as written). */
export async function upgradePodsStep(
  s: UpgradeSync,
  pods: readonly Pod[],
  injectedList: (pod: Pod) => string,
): Promise<Pod[]> {
  const { upgrade, notUpgradable } = getNextUpgradePods(s.set, pods);
  await forEachLimited(notUpgradable, POD_WRITE_CONCURRENCY, (pod) => writeUpgradable(s, pod, false));
  if (notUpgradable.length > 0)
    await s.d.recorder.normal(
      s.set,
      NOT_UPGRADABLE_PODS_REASON,
      `SidecarSet in-place update detected ${notUpgradable.length} not upgradable pod(s) in this round, will skip them.`,
    );
  const results: (Pod | undefined)[] = [];
  await forEachLimited([...upgrade.entries()], POD_WRITE_CONCURRENCY, async ([i, pod]) => {
    // another writer may have upgraded it meanwhile: then nothing to write
    const out = await updatePod(s, pod, (fresh) =>
      isPodSidecarUpdated(s.set, fresh)
        ? undefined
        : upgradePodSidecars(s.set, fresh, s.now(), () => injectedList(fresh)),
    );
    if (!out) return;
    await writeUpgradable(s, out.pod, true);
    results[i] = out.pod;
  });
  const written = results.filter((p): p is Pod => p !== undefined);
  if (written.length > 0)
    s.log.info({ pods: written.map((p) => p.metadata?.name) }, 'upgraded sidecars in place');
  return written;
}
