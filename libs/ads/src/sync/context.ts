/**
 * What every step of one DaemonSet reconcile reads: the DaemonSet, its key and rollout settings, the nodes and
 * their eligibility, the clock, the log, the reconciler's dependencies and the write-side controls bound to this
 * DaemonSet's expectations.
 */
import type { KubeObject } from '@regatta/kube';
import type { ObjectReader, WorkloadSync, WorkloadSyncDeps } from '@regatta/workload';
import type { DaemonSetFeatureGates, DaemonSetObject, DaemonSetRollout } from '../daemonset-object.js';
import type { FailedPodBackoff, Node, NodeFacts } from '../planning/index.js';

/** Pods written at once in one reconcile. */
export { POD_WRITE_CONCURRENCY } from '@regatta/runtime';
export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;

export interface SyncDeps extends WorkloadSyncDeps {
  nodes: ObjectReader<KubeObject>;
}

export interface DaemonSetSync extends WorkloadSync {
  readonly d: SyncDeps;
  /** The DaemonSet with apiVersion and kind set. */
  readonly ds: DaemonSetObject;
  readonly rollout: DaemonSetRollout;
  readonly gates: DaemonSetFeatureGates;
  readonly random: () => number;
  /** The per-node back-off of failed pod deletions (the reconciler's, kept across rounds). */
  readonly failedBackoff: FailedPodBackoff;
  /** Every node, and whether the daemon should run / keep running there. */
  readonly nodes: readonly NodeFacts[];
  readonly nodeObjects: readonly Node[];
  /** The update revision's hash (the pods' `controller-revision-hash`). */
  readonly hash: string;
  /** `deprecated.daemonset.template.generation`, when the DaemonSet carries it. */
  readonly templateGeneration: string | undefined;
}
