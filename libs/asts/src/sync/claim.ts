/**
 * Claim step (OpenKruise `pkg/controller/statefulset/statefulset_controller.go` `getPodsForStatefulSet`): the pods
 * named `<set>-<ordinal>` this set controls, after adopting matching orphans and releasing owned pods that no
 * longer match its selector. Terminating and finished pods are kept: the reconcile waits for or replaces them.
 */
import { type KubeObject, controllerRef } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import { claim } from '@regatta/workload';
import { isMemberOf } from '../planning/index.js';
import { STATEFULSET_GVK, type StatefulSetObject } from '../statefulset-object.js';
import { POD, type SyncDeps } from './context.js';

export async function claimStep(
  d: SyncDeps,
  set: StatefulSetObject,
  log: ReconcileContext['log'],
  onWritten: (obj: KubeObject) => void,
): Promise<Pod[]> {
  const uid = set.metadata?.uid ?? '';
  const ns = set.metadata?.namespace;
  const name = set.metadata?.name ?? '';
  const owned = await claim(
    { client: d.client, log, onWritten },
    {
      owner: set,
      ownerKind: STATEFULSET_GVK,
      kind: POD,
      selector: set.spec?.selector,
      owned: d.pods.byIndex('ownerUid', uid) as Pod[],
      orphans: ns
        ? (d.pods.byIndex('namespace', ns) as Pod[]).filter(
            (p) => controllerRef(p) === undefined && isMemberOf(name, p) && !p.metadata?.deletionTimestamp,
          )
        : [],
    },
  );
  return owned.filter((p) => isMemberOf(name, p));
}
