/**
 * Claim step (Kubernetes `pkg/controller/daemon/daemon_controller.go` `getDaemonPods`): the pods this DaemonSet
 * controls after adopting matching orphans and releasing owned pods that no longer match.
 */
import { type KubeObject, controllerRef } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import { claim } from '@regatta/workload';
import { DAEMONSET_GVK, type DaemonSetObject } from '../daemonset-object.js';
import { POD, type SyncDeps } from './context.js';

export async function claimStep(
  d: SyncDeps,
  ds: DaemonSetObject,
  log: ReconcileContext['log'],
  onWritten: (obj: KubeObject) => void,
): Promise<Pod[]> {
  const uid = ds.metadata?.uid ?? '';
  const ns = ds.metadata?.namespace;
  // the cache is read synchronously, when the step is called (the reconciler checks its expectations gate just
  // before: the pods claimed are at least what the gate counted as seen)
  return claim(
    { client: d.client, log, onWritten },
    {
      owner: ds,
      ownerKind: DAEMONSET_GVK,
      kind: POD,
      selector: ds.spec?.selector,
      owned: d.pods.byIndex('ownerUid', uid) as Pod[],
      orphans: ns
        ? (d.pods.byIndex('namespace', ns) as Pod[]).filter((p) => controllerRef(p) === undefined)
        : [],
    },
  );
}
