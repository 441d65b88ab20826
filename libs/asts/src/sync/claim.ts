/**
 * Claim step (OpenKruise `pkg/controller/statefulset/statefulset_controller.go` `getPodsForStatefulSet`): the pods
 * named `<set>-<ordinal>` this set controls, after adopting matching orphans and releasing owned pods that no
 * longer match its selector. Terminating and finished pods are kept: the reconcile waits for or replaces them.
 */
import type { KubeObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import { claimPods } from '@regatta/workload';
import { isMemberOf } from '../planning/index.js';
import { STATEFULSET_GVK, type StatefulSetObject } from '../statefulset-object.js';
import type { SyncDeps } from './context.js';

export async function claimStep(
  d: SyncDeps,
  set: StatefulSetObject,
  log: ReconcileContext['log'],
  onWritten: (obj: KubeObject) => void,
): Promise<Pod[]> {
  const name = set.metadata?.name ?? '';
  const owned = await claimPods(d, {
    owner: set,
    ownerKind: STATEFULSET_GVK,
    log,
    onWritten,
    adoptable: (p) => isMemberOf(name, p) && !p.metadata?.deletionTimestamp,
  });
  return owned.filter((p) => isMemberOf(name, p));
}
