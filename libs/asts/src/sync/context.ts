/**
 * What every step of one Advanced StatefulSet reconcile reads: the set, its key and effective spec, the clock, the
 * log, the reconciler's dependencies and the write-side controls bound to this set's expectations.
 */
import type { EventRecorder, KubeObject, OwnWrites } from '@regatta/kube';
import type { InPlaceUpdateControl } from '@regatta/inplace-update';
import type { LifecycleControl } from '@regatta/lifecycle';
import type { Expectations, ReconcileContext } from '@regatta/runtime';
import type { KubeWriter, ObjectReader, RolloutRecord, RolloutTraceControl } from '@regatta/workload';
import type { AstsFeatureGates, EffectiveSpec, StatefulSetObject } from '../statefulset-object.js';

export const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
export const PVC = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' } as const;

export interface SyncDeps {
  client: KubeWriter;
  pods: ObjectReader<KubeObject>;
  pvcs: ObjectReader<KubeObject>;
  revisions: ObjectReader<KubeObject>;
  expectations: Expectations;
  recorder: EventRecorder;
}

/** A condition a failed pod write leaves in the status (`FailedCreatePod` / `FailedUpdatePod`). */
export interface FailureCondition {
  type: 'FailedCreatePod' | 'FailedUpdatePod';
  message: string;
}

export interface AstsSync {
  readonly d: SyncDeps;
  /** The set with apiVersion and kind set. */
  readonly set: StatefulSetObject;
  readonly key: string;
  readonly spec: EffectiveSpec;
  readonly gates: AstsFeatureGates;
  readonly now: () => Date;
  readonly log: ReconcileContext['log'];
  readonly lifecycle: LifecycleControl;
  readonly inPlace: InPlaceUpdateControl;
  readonly traces: RolloutTraceControl;
  readonly record: RolloutRecord | undefined;
  /** Requeue delays asked for by the steps (ms). */
  readonly delays: number[];
  /**
   * Pods refreshed this round, and whether their lifecycle state was written (the cache does not show this round's
   * writes: a second refresh of the cached pod would only repeat them).
   */
  readonly refreshed: Map<string, boolean>;
  /** Conditions of failed pod writes this round. */
  readonly failures: FailureCondition[];
  /** The set's own status writes, until the cache shows them. */
  readonly ownWrites: OwnWrites;
  expectUpdated(obj: KubeObject): void;
}
