/**
 * What every step of one workload round reads besides the kind's own objects (docs/adr/0072-one-workload-round.md):
 * the workload's key, the clock, the log, the pod-write controls bound to its expectations, its open rollout and the
 * requeue delays the steps ask for. Each kind's `sync/context.ts` extends it with its object, spec and gates.
 */
import type { InPlaceUpdateControl } from '@regatta/inplace-update';
import type { EventRecorder, KubeObject } from '@regatta/kube';
import type { LifecycleControl } from '@regatta/lifecycle';
import type { Expectations, ReconcileContext } from '@regatta/runtime';
import type { RolloutTraceControl } from '../rollout-trace-control.js';
import type { RolloutRecord } from '../rollout-tracer.js';
import type { KubeWriter, ObjectReader } from '../types.js';

export interface WorkloadSync {
  /** namespace/name of the workload (expectations and traces are kept under it). */
  readonly key: string;
  readonly now: () => Date;
  readonly log: ReconcileContext['log'];
  readonly lifecycle: LifecycleControl;
  readonly inPlace: InPlaceUpdateControl;
  readonly traces: RolloutTraceControl;
  /** The open rollout of the update revision, when traced. */
  readonly record: RolloutRecord | undefined;
  /** Requeue delays asked for by the steps (ms). */
  readonly delays: number[];
  /** Expects the cache to show this version of a pod the round wrote. */
  expectUpdated(obj: KubeObject): void;
}

/** The reconciler's dependencies every step may use; a kind's `SyncDeps` adds its other caches (PVCs, nodes). */
export interface WorkloadSyncDeps {
  client: KubeWriter;
  pods: ObjectReader<KubeObject>;
  revisions: ObjectReader<KubeObject>;
  expectations: Expectations;
  recorder: EventRecorder;
}
