/**
 * What every step of one CloneSet reconcile reads: the CloneSet, its key and rollout spec, the clock, the log, the
 * reconciler's dependencies and the write-side controls bound to this CloneSet's expectations.
 */
import type { EventRecorder, KubeObject, OwnWrites } from '@regatta/kube';
import type { InPlaceUpdateControl } from '@regatta/inplace-update';
import type { LifecycleControl } from '@regatta/lifecycle';
import type { CloneSetRolloutSpec } from '@regatta/rollout';
import type { Expectations, ReconcileContext } from '@regatta/runtime';
import type { KubeWriter, ObjectReader, RolloutRecord, RolloutTraceControl } from '@regatta/workload';
import type { CloneSetFeatureGates, CloneSetObject } from '../cloneset-object.js';
import type { RandomSource } from '../planning/index.js';

/** Pods written at once in one reconcile (each pod's own writes stay in order): runtime's, shared by the workloads. */
export { POD_WRITE_CONCURRENCY } from '@regatta/runtime';
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

export interface CloneSetSync {
  readonly d: SyncDeps;
  /** The CloneSet with apiVersion and kind set. */
  readonly cs: CloneSetObject;
  readonly key: string;
  readonly spec: CloneSetRolloutSpec;
  readonly gates: CloneSetFeatureGates;
  readonly random: RandomSource;
  readonly now: () => Date;
  readonly log: ReconcileContext['log'];
  readonly lifecycle: LifecycleControl;
  readonly inPlace: InPlaceUpdateControl;
  readonly traces: RolloutTraceControl;
  /** The open rollout of the update revision, when traced. */
  readonly record: RolloutRecord | undefined;
  /** Requeue delays asked for by the steps (ms). */
  readonly delays: number[];
  /** The CloneSet's own status writes, until the cache shows them. */
  readonly ownWrites: OwnWrites;
  /** Expects the cache to show this version of a pod the reconcile wrote. */
  expectUpdated(obj: KubeObject): void;
}
