/**
 * Step 7: upgrade the next pods (OpenKruise `Processor.updatePods`): not-upgradable pods get their condition and
 * one event, the chosen ones their new sidecar images in one pod update each (a patch
 * guarded by the version read, ./pod-writes.ts), then `SidecarSetUpgradable=True`.
 * Each pod's writes go in order; up to POD_WRITE_CONCURRENCY pods are written at once, as CloneSet's in-place
 * updates are (upstream writes one pod after the other, which makes a round of N pods take 2·N write round trips:
 * docs/adr/0055-sidecarset-pod-writes-concurrent.md). The round's pods were all chosen under maxUnavailable before
 * the first write, and the next round waits until the cache shows every write of this one, so the writes in flight
 * are always within the budget. Pods whose sidecars changed in cpu/memory requests/limits (and images) only are
 * resized through `pods/resize` first (./resize.ts, docs/adr/0087-in-place-resource-resize.md). One pod's failure does not stop the others: each pod that was written is reported
 * (`onUpgraded`) and expected, then the first error is rethrown; a pod deleted meanwhile is not an error.
 */
import { isNotFound } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { POD_WRITE_CONCURRENCY, forEachLimited } from '@regatta/runtime';
import { NOT_UPGRADABLE_PODS_REASON, SIDECARSET_HASH_WITHOUT_IMAGE_KEY } from '../keys.js';
import { getNextUpgradePods } from '../next-upgrade.js';
import { isPodSidecarUpdated, podHashEntries, sidecarSetHashWithoutImage } from '../pod-state.js';
import { upgradePodSidecars } from '../pod-upgrade.js';
import { isBudgetRefusal } from '@regatta/api';
import type { UpgradeSync } from './context.js';
import { updatePod, writeUpgradable } from './pod-writes.js';
import { reportResizeRefusal, resizePlanner } from './resize.js';

/**
 * Runs a pod's writes; a pod deleted since the cache showed it (NotFound) has nothing left to write; a pod a
 * PodUnavailableBudget refused waits for budget (`onBudgetWait`), not an error.
 */
async function unlessGone(write: () => Promise<void>, onBudgetWait?: () => void): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (onBudgetWait && isBudgetRefusal(err)) return onBudgetWait();
    if (!isNotFound(err)) throw err;
  }
}

/**
 * Upgrades this round's pods; `onUpgraded` is called for every pod whose update was written (as written), also when
 * another pod's write failed. Returns those pods, in the round's order.
 */
export async function upgradePodsStep(
  s: UpgradeSync,
  pods: readonly Pod[],
  injectedList: (pod: Pod) => string,
  onUpgraded: (pod: Pod) => void = () => undefined,
  onBudgetWait: (pod: Pod) => void = () => undefined,
): Promise<Pod[]> {
  // beyond upstream: a change of sidecar cpu/memory requests/limits is resized in place (./resize.ts)
  const planResize = resizePlanner(s);
  const refusals = s.resizeRefusals;
  const refused = (pod: Pod) => refusals?.has(s, pod) ?? false;
  const sameWithoutImage = (pod: Pod) =>
    podHashEntries(pod, SIDECARSET_HASH_WITHOUT_IMAGE_KEY)[s.key]?.hash === sidecarSetHashWithoutImage(s.set);
  const next = getNextUpgradePods(s.set, pods, (pod) => !refused(pod) && planResize(pod).ok);
  const { upgrade } = next;
  // a refused resize was reported once; its pod is neither upgraded nor reported not upgradable each round
  const notUpgradable = next.notUpgradable.filter((pod) => !refused(pod));
  await forEachLimited(notUpgradable, POD_WRITE_CONCURRENCY, (pod) =>
    unlessGone(() => writeUpgradable(s, pod, false)),
  );
  if (notUpgradable.length > 0)
    await s.d.recorder.normal(
      s.set,
      NOT_UPGRADABLE_PODS_REASON,
      `SidecarSet in-place update detected ${notUpgradable.length} not upgradable pod(s) in this round, will skip them.`,
    );
  const results: (Pod | undefined)[] = [];
  try {
    await forEachLimited([...upgrade.entries()], POD_WRITE_CONCURRENCY, ([i, pod]) =>
      unlessGone(
        async () => {
          // another writer may have upgraded it meanwhile: then nothing to write
          let out: Awaited<ReturnType<typeof updatePod>>;
          try {
            out = await updatePod(s, pod, (fresh) => {
              if (isPodSidecarUpdated(s.set, fresh)) return undefined;
              if (sameWithoutImage(fresh))
                return upgradePodSidecars(s.set, fresh, s.now(), () => injectedList(fresh));
              const plan = planResize(fresh);
              if (!plan.ok) return undefined; // changed since it was chosen: the next round reports it
              const resized = Object.keys(plan.wanted);
              const up = upgradePodSidecars(s.set, fresh, s.now(), () => injectedList(fresh), { resized });
              return { ...up, resize: plan.wanted };
            });
          } catch (err) {
            if (refusals && (await reportResizeRefusal(s, refusals, pod, err))) return;
            throw err;
          }
          if (!out) return;
          results[i] = out.pod;
          onUpgraded(out.pod);
          await writeUpgradable(s, out.pod, true);
        },
        () => onBudgetWait(pod),
      ),
    );
  } finally {
    const written = results.filter((p): p is Pod => p !== undefined);
    if (written.length > 0)
      s.log.info({ pods: written.map((p) => p.metadata?.name) }, 'upgraded sidecars in place');
  }
  return results.filter((p): p is Pod => p !== undefined);
}
