/**
 * PVC clean-up when `scaleStrategy.disablePVCReuse` is set (OpenKruise
 * `pkg/controller/cloneset/sync/cloneset_scale.go`, `cleanupPVCs`): claims of a terminating or terminated pod are
 * handed over to the pod (they go with it), claims of no pod are deleted.
 */
import { EventReasons, isConflict, isNotFound } from '@regatta/kube';
import { type CloneSetObject, nameOf } from '../cloneset-object.js';
import { errText } from '../events.js';
import { type PersistentVolumeClaim, claimOwnedByPod, planPvcCleanup } from '../planning/index.js';
import type { Claimed } from './claim.js';
import { PVC, type SyncDeps } from './context.js';

export async function cleanupPvcsStep(
  d: SyncDeps,
  cs: CloneSetObject,
  key: string,
  c: Claimed,
): Promise<void> {
  if (!cs.spec?.scaleStrategy?.disablePVCReuse) return;
  const plan = planPvcCleanup(c.activePods, c.inactivePods, c.pvcs);
  for (const { pvc, pod } of plan.handOver) {
    await d.client
      .replace({ ...claimOwnedByPod(pvc, cs.metadata?.uid ?? '', pod), ...PVC })
      .catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err)) {
          void d.recorder.warning(
            cs,
            EventReasons.FailedUpdate,
            `failed to update pvc ${nameOf(pvc)}: ${errText(err)}`,
          );
        }
      });
  }
  for (const pvc of plan.remove) await deletePvc(d, cs, key, pvc);
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
    if (!isNotFound(err)) {
      void d.recorder.warning(
        cs,
        EventReasons.FailedDelete,
        `failed to delete pvc ${nameOf(pvc)}: ${errText(err)}`,
      );
    }
  }
}
