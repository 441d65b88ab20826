/**
 * PVC clean-up when `scaleStrategy.disablePVCReuse` is set (OpenKruise
 * `pkg/controller/cloneset/cloneset_controller.go`, `cleanupPVCs`): claims of a terminating or terminated pod are
 * handed over to the pod (they go with it), claims of no pod are deleted, and only the claims of active pods are
 * left for scaling. Scaling must get that list, not the full one: a claim left in it keeps its instance id free
 * for reuse, and a replacement pod would then take the terminating pod's id, name and claim.
 */
import { EventReasons, isNotFound } from '@regatta/kube';
import { type CloneSetObject, nameOf } from '../cloneset-object.js';
import { errText } from '../events.js';
import { type PersistentVolumeClaim, claimOwnedByPod, planPvcCleanup } from '../planning/index.js';
import type { Claimed } from './claim.js';
import { PVC, type SyncDeps } from './context.js';

/**
 * The claims scaling may use: all of them when reuse is allowed, else those of active pods (after handing the
 * others over to their pods or deleting them). A failed write (other than NotFound) fails the round, as upstream.
 */
export async function cleanupPvcsStep(
  d: SyncDeps,
  cs: CloneSetObject,
  key: string,
  c: Claimed,
): Promise<PersistentVolumeClaim[]> {
  if (!cs.spec?.scaleStrategy?.disablePVCReuse) return c.pvcs;
  const plan = planPvcCleanup(c.activePods, c.inactivePods, c.pvcs);
  for (const { pvc, pod } of plan.handOver) {
    try {
      await d.client.replace({ ...claimOwnedByPod(pvc, cs.metadata?.uid ?? '', pod), ...PVC });
    } catch (err) {
      if (isNotFound(err)) continue;
      void d.recorder.warning(
        cs,
        EventReasons.FailedUpdate,
        `failed to update pvc ${nameOf(pvc)}: ${errText(err)}`,
      );
      throw err;
    }
  }
  for (const pvc of plan.remove) await deletePvc(d, cs, key, pvc);
  return plan.active;
}

async function deletePvc(
  d: SyncDeps,
  cs: CloneSetObject,
  key: string,
  pvc: PersistentVolumeClaim,
): Promise<void> {
  d.expectations.expectScale(key, 'delete', nameOf(pvc));
  try {
    await d.client.delete({ ...PVC, namespace: pvc.metadata?.namespace, name: nameOf(pvc) });
  } catch (err) {
    d.expectations.observeScale(key, 'delete', nameOf(pvc));
    if (isNotFound(err)) return;
    void d.recorder.warning(
      cs,
      EventReasons.FailedDelete,
      `failed to delete pvc ${nameOf(pvc)}: ${errText(err)}`,
    );
    throw err;
  }
}
