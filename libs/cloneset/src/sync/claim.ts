/**
 * Claim step (OpenKruise `pkg/controller/cloneset/cloneset_controller.go` `claimPods`): the pods this CloneSet
 * controls after adopting matching orphans and releasing owned pods that no longer match, split into active and
 * inactive ones, and its live PVCs.
 */
import { type KubeObject, controllerRef } from '@regatta/kube';
import { type Pod, isPodActive } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import { claimPods } from '@regatta/workload';
import { CLONESET_GVK, type CloneSetObject } from '../cloneset-object.js';
import type { PersistentVolumeClaim } from '../planning/index.js';
import type { SyncDeps } from './context.js';

export interface Claimed {
  activePods: Pod[];
  inactivePods: Pod[];
  pvcs: PersistentVolumeClaim[];
}

export async function claimStep(
  d: SyncDeps,
  cs: CloneSetObject,
  log: ReconcileContext['log'],
  onWritten: (obj: KubeObject) => void,
): Promise<Claimed> {
  const uid = cs.metadata?.uid ?? '';
  const owned = await claimPods(d, { owner: cs, ownerKind: CLONESET_GVK, log, onWritten });
  const pvcs = (d.pvcs.byIndex('ownerUid', uid) as PersistentVolumeClaim[]).filter(
    (c) => controllerRef(c)?.uid === uid && !c.metadata?.deletionTimestamp,
  );
  return { activePods: owned.filter(isPodActive), inactivePods: owned.filter((p) => !isPodActive(p)), pvcs };
}
