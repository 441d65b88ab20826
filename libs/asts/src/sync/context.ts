/**
 * What every step of one Advanced StatefulSet reconcile reads: the set, its key and effective spec, the clock, the
 * log, the reconciler's dependencies and the write-side controls bound to this set's expectations.
 */
import type { KubeObject, OwnWrites } from '@regatta/kube';
import type { ObjectReader, WorkloadSync, WorkloadSyncDeps } from '@regatta/workload';
import type { AstsFeatureGates, EffectiveSpec, StatefulSetObject } from '../statefulset-object.js';

export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
export const PVC = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' } as const;

export interface SyncDeps extends WorkloadSyncDeps {
  pvcs: ObjectReader<KubeObject>;
}

/** A condition a failed pod write leaves in the status (`FailedCreatePod` / `FailedUpdatePod`). */
export interface FailureCondition {
  type: 'FailedCreatePod' | 'FailedUpdatePod';
  message: string;
}

export interface AstsSync extends WorkloadSync {
  readonly d: SyncDeps;
  /** The set with apiVersion and kind set. */
  readonly set: StatefulSetObject;
  readonly spec: EffectiveSpec;
  readonly gates: AstsFeatureGates;
  /**
   * Pods refreshed this round, and whether their lifecycle state was written (the cache does not show this round's
   * writes: a second refresh of the cached pod would only repeat them).
   */
  readonly refreshed: Map<string, boolean>;
  /** Conditions of failed pod writes this round. */
  readonly failures: FailureCondition[];
  /** Pods whose resize the API server refused this round, with its message (the status step reports them). */
  readonly resizeRefused: Map<string, string>;
  /** The set's own status writes, until the cache shows them. */
  readonly ownWrites: OwnWrites;
}
