/**
 * Step 5: hot-upgrade finalisation (OpenKruise `pkg/controller/sidecarset/sidecarset_hotupgrade.go`): once the new
 * twin works (consistent and ready), the idle twin goes back to `hotUpgradeEmptyImage`, with an event on the pod.
 */
import type { Pod } from '@regatta/lifecycle';
import { RESET_CONTAINER_FAILED_REASON, RESET_CONTAINER_SUCCEED_REASON } from '../keys.js';
import {
  isHotUpgrade,
  isHotUpgradingReady,
  isPodInHotUpgrading,
  isPodStateConsistent,
  workingSidecarContainers,
} from '../pod-state.js';
import { resetIdleTwins } from '../pod-upgrade.js';
import { sidecarsOf } from '../sidecar-containers.js';
import type { UpgradeSync } from './context.js';
import { updatePod } from './pod-writes.js';

/** Pods whose idle twin is ready to be reset. */
export function podsToReset(s: UpgradeSync, pods: readonly Pod[]): Pod[] {
  const { set } = s;
  if (!sidecarsOf(set).some(isHotUpgrade)) return [];
  return pods.filter(
    (pod) =>
      isPodInHotUpgrading(set, pod) &&
      isPodStateConsistent(set, pod, workingSidecarContainers(set, pod)) &&
      isHotUpgradingReady(set, pod),
  );
}

/** Resets the idle twins; true when some pod was (then this round does nothing else). */
export async function hotResetStep(s: UpgradeSync, pods: readonly Pod[]): Promise<boolean> {
  const reset = podsToReset(s, pods);
  for (const pod of reset) {
    let written: Awaited<ReturnType<typeof updatePod>>;
    try {
      written = await updatePod(s, pod, (fresh) => {
        const next = resetIdleTwins(s.set, fresh, s.now());
        return next.changed.length > 0 ? next : undefined;
      });
    } catch (err) {
      await s.d.recorder.warning(
        pod,
        RESET_CONTAINER_FAILED_REASON,
        `reset sidecar container image empty failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      throw err;
    }
    if (!written) continue;
    await s.d.recorder.normal(
      pod,
      RESET_CONTAINER_SUCCEED_REASON,
      'reset sidecar container image empty successfully',
    );
  }
  return reset.length > 0;
}
