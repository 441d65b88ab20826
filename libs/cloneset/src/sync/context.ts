/**
 * What every step of one CloneSet reconcile reads: the CloneSet, its key and rollout spec, the clock, the log, the
 * reconciler's dependencies and the write-side controls bound to this CloneSet's expectations.
 */
import type { KubeObject, OwnWrites } from '@regatta/kube';
import type { CloneSetRolloutSpec } from '@regatta/rollout';
import type { ObjectReader, WorkloadSync, WorkloadSyncDeps } from '@regatta/workload';
import type { CloneSetFeatureGates, CloneSetObject } from '../cloneset-object.js';
import type { RandomSource } from '../planning/index.js';

/** Pods written at once in one reconcile (each pod's own writes stay in order): runtime's, shared by the workloads. */
export { POD_WRITE_CONCURRENCY } from '@regatta/runtime';
export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
export const PVC = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' } as const;

export interface SyncDeps extends WorkloadSyncDeps {
  pvcs: ObjectReader<KubeObject>;
}

export interface CloneSetSync extends WorkloadSync {
  readonly d: SyncDeps;
  /** The CloneSet with apiVersion and kind set. */
  readonly cs: CloneSetObject;
  readonly spec: CloneSetRolloutSpec;
  readonly gates: CloneSetFeatureGates;
  readonly random: RandomSource;
  /** The CloneSet's own status writes, until the cache shows them. */
  readonly ownWrites: OwnWrites;
  /** Pods whose resize the API server refused this round, with its message (the status step reports them). */
  readonly resizeRefused: Map<string, string>;
}
