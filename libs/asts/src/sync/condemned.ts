/**
 * Condemned pods (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `processCondemned`): pods whose
 * ordinal left the valid range, highest first. Their claims get the owner references the retention policy asks for;
 * OrderedReady deletes one at a time after every predecessor is healthy (an unhealthy pod only if it is the first
 * unhealthy one); Parallel deletes them all, in slow-start batches.
 */
import type { Pod } from '@regatta/lifecycle';
import { slowStartBatches } from '@regatta/rollout';
import { POD_WRITE_CONCURRENCY, forEachLimited } from '@regatta/runtime';
import { isRunningAndReady, isTerminating, runningAndAvailable } from '../planning/index.js';
import { minReadySecondsOf } from '../statefulset-object.js';
import type { AstsSync } from './context.js';
import { claimsMatchPolicy, deletePod, fixClaimRefs } from './pod-control.js';

/** Claim references of condemned pods; true when the reconcile should stop (OrderedReady after an error). */
export async function fixCondemnedClaims(s: AstsSync, condemned: readonly Pod[]): Promise<void> {
  for (const pod of condemned) if (!claimsMatchPolicy(s, pod, true)) await fixClaimRefs(s, pod, true);
}

/** Scale down; true when OrderedReady must stop this round. */
export async function condemnedStep(
  s: AstsSync,
  condemned: readonly Pod[],
  firstUnhealthy: Pod | undefined,
): Promise<boolean> {
  const monotonic = s.spec.podManagementPolicy !== 'Parallel';
  const now = s.now();
  if (!monotonic) {
    const live = condemned.filter((p) => !isTerminating(p));
    let i = 0;
    for (const size of slowStartBatches(live.length)) {
      await forEachLimited(live.slice(i, i + size), POD_WRITE_CONCURRENCY, async (p) => {
        await deletePod(s, p);
      });
      i += size;
    }
    return false;
  }
  for (const pod of condemned) {
    if (isTerminating(pod)) return true;
    const first = pod === firstUnhealthy;
    if (!isRunningAndReady(pod) && !first) return true;
    const a = runningAndAvailable(pod, minReadySecondsOf(s.spec), now);
    if (!a.available && !first) {
      if (a.waitMs > 0) s.delays.push(a.waitMs);
      return true;
    }
    const { modified, waitsForBudget } = await deletePod(s, pod);
    // ordered scale-in: a deletion the PodUnavailableBudget refused is waited for, never skipped
    if (modified || waitsForBudget) return true;
  }
  return false;
}
