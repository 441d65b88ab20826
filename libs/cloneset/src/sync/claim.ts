/**
 * Claim step (OpenKruise `pkg/controller/cloneset/cloneset_controller.go` `claimPods`): the pods this CloneSet
 * controls after adopting matching orphans and releasing owned pods that no longer match, split into active and
 * inactive ones, and its live PVCs.
 */
import { type KubeObject, controllerRef } from '@regatta/kube';
import { type Pod, isPodActive } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import { claim } from '@regatta/workload';
import { CLONESET_GVK, type CloneSetObject } from '../cloneset-object.js';
import type { PersistentVolumeClaim } from '../planning/index.js';
import { POD, type SyncDeps } from './context.js';

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
  const ns = cs.metadata?.namespace;
  const owned = await claim(
    { client: d.client, log, onWritten },
    {
      owner: cs,
      ownerKind: CLONESET_GVK,
      kind: POD,
      selector: cs.spec?.selector,
      owned: d.pods.byIndex('ownerUid', uid) as Pod[],
      orphans: ns
        ? (d.pods.byIndex('namespace', ns) as Pod[]).filter((p) => controllerRef(p) === undefined)
        : [],
    },
  );
  const pvcs = (d.pvcs.byIndex('ownerUid', uid) as PersistentVolumeClaim[]).filter(
    (c) => controllerRef(c)?.uid === uid && !c.metadata?.deletionTimestamp,
  );
  return { activePods: owned.filter(isPodActive), inactivePods: owned.filter((p) => !isPodActive(p)), pvcs };
}
