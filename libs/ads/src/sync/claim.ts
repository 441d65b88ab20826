/**
 * Claim step (Kubernetes `pkg/controller/daemon/daemon_controller.go` `getDaemonPods`): the pods this DaemonSet
 * controls after adopting matching orphans and releasing owned pods that no longer match.
 */
import type { KubeObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { ReconcileContext } from '@regatta/runtime';
import { claimPods } from '@regatta/workload';
import { DAEMONSET_GVK, type DaemonSetObject } from '../daemonset-object.js';
import type { SyncDeps } from './context.js';

export function claimStep(
  d: SyncDeps,
  ds: DaemonSetObject,
  log: ReconcileContext['log'],
  onWritten: (obj: KubeObject) => void,
): Promise<Pod[]> {
  // the cache is read synchronously, when the step is called (the reconciler checks its expectations gate just
  // before: the pods claimed are at least what the gate counted as seen)
  return claimPods(d, { owner: ds, ownerKind: DAEMONSET_GVK, log, onWritten });
}
