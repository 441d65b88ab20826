/**
 * One workload kind's round state and its opening (docs/adr/0072-one-workload-round.md). It remembers, per object,
 * the spec guard's verdicts, open rollout traces, its own status writes the cache may not show yet and the status
 * cadence (ADR 0050, 0070); `forget` drops all of it when the object is gone, as OpenKruise's controllers drop their
 * expectations on a NotFound (`pkg/controller/cloneset/cloneset_controller.go` `doReconcile`). `open` is the start of
 * a round that gates before it claims: read, spec guard, pending pod writes.
 */
import { type EventRecorder, type KubeObject, OwnWrites, SpecGuard } from '@regatta/kube';
import type { Expectations, ReconcileContext, Request, Result } from '@regatta/runtime';
import type { RolloutAttributes, RolloutRecord, RolloutTracer } from '../rollout-tracer.js';
import { RolloutTraceControl } from '../rollout-trace-control.js';
import { StatusCadence } from '../status-cadence.js';
import type { KubeWriter, ObjectReader, WorkloadKind } from '../types.js';
import type { WorkloadSync } from './context.js';
import { pendingPodWrites, refusedSpec } from './gates.js';
import { expectPodWrites } from './pod-writes.js';
import { type TracedRollout, traceRollout, workloadSync } from './round-sync.js';

/** The reconciler's dependencies the round uses (a kind's `…ReconcilerDeps` fits). */
export interface WorkloadRoundDeps {
  client: KubeWriter;
  pods: ObjectReader<KubeObject>;
  expectations: Expectations;
  recorder: Pick<EventRecorder, 'warning'>;
  /** Rollout traces (one trace per rollout); none: no traces. */
  rollouts?: RolloutTracer;
  /** The clock (default: the machine's). */
  now?: () => Date;
  /** Default: a cadence of `STATUS_WRITE_INTERVAL_MS` (unit tests on a frozen clock pass an interval of 0). */
  statusCadence?: StatusCadence;
}

export interface WorkloadRoundKind<Checked extends KubeObject> {
  gvk: WorkloadKind;
  /** The kind's name in log lines and events ("CloneSet"). */
  name: string;
  /** The cache of the workloads themselves. */
  reader: ObjectReader<KubeObject>;
  /** The kind's admission rules as the reconciler re-checks them on the stored spec (its `spec-guard.ts`). */
  specProblem: (obj: Checked) => string | undefined;
}

/** Something else the kind remembers under the workload's key (node spans, back-offs). */
export interface ForgetsByKey {
  forget(key: string): void;
}

type ReconcileLog = ReconcileContext['log'];
type RoundLog = { debug(fields: object, msg: string): void; warn(fields: object, msg: string): void };

export class WorkloadRound<W extends KubeObject, Checked extends KubeObject = W> {
  readonly traces: RolloutTraceControl;
  readonly specGuard: SpecGuard<Checked>;
  /** Status writes the cache may not show yet (a condition written twice would move its transition time). */
  readonly ownWrites = new OwnWrites();
  /** When each workload's status was last written (counter-only changes wait for the interval, ADR 0050). */
  readonly statusCadence: StatusCadence;
  /** The round's clock. */
  readonly now: () => Date;
  readonly #kind: WorkloadRoundKind<Checked>;
  readonly #d: WorkloadRoundDeps;
  readonly #others: readonly ForgetsByKey[];

  constructor(kind: WorkloadRoundKind<Checked>, deps: WorkloadRoundDeps, others: ForgetsByKey[] = []) {
    this.#kind = kind;
    this.#d = deps;
    this.#others = others;
    const now = deps.now ?? (() => new Date());
    this.now = now;
    this.specGuard = new SpecGuard(kind.specProblem);
    this.statusCadence = deps.statusCadence ?? new StatusCadence();
    this.traces = new RolloutTraceControl({
      client: deps.client,
      kind: kind.gvk,
      tracer: deps.rollouts,
      now,
    });
  }

  /**
   * The workload as this round sees it: the cached object (or this process's newer status write of it) with
   * apiVersion and kind set; undefined, everything about it forgotten, when the cache no longer has it.
   */
  read(req: Request, key: string): W | undefined {
    const cached = this.#kind.reader.get(req.namespace, req.name);
    if (!cached) {
      this.forget(key, req);
      return undefined;
    }
    const { apiVersion, kind } = this.#kind.gvk;
    return { ...this.ownWrites.view(cached), apiVersion, kind } as W;
  }

  /** `{}` (and a warning event) when the stored spec fails the kind's rules; undefined when it passes. */
  refused(key: string, workload: W, log: RoundLog): Result | undefined {
    return refusedSpec({
      guard: this.specGuard,
      key,
      obj: workload,
      // the kind's rules take the API type; the reconciled object is that object with its GVK set
      checked: workload as unknown as Checked,
      kindName: this.#kind.name,
      recorder: this.#d.recorder,
      log,
    });
  }

  /** A short requeue while the pods cache lacks earlier writes of this workload's rounds. */
  pending(key: string, req: Request, log: RoundLog): Result | undefined {
    return pendingPodWrites({ expectations: this.#d.expectations, pods: this.#d.pods, key, req, log });
  }

  /** Read, spec guard, pending pod writes: the workload to act on, or the round's Result when it stops here. */
  open(req: Request, key: string, log: RoundLog): { workload: W } | { done: Result } {
    const workload = this.read(req, key);
    if (!workload) return { done: {} };
    const done = this.refused(key, workload, log) ?? this.pending(key, req, log);
    return done ? { done } : { workload };
  }

  /** Expects the cache to show each pod the round writes at the version written; `onEach` first sees every write. */
  expectWrites(key: string, onEach?: (obj: KubeObject) => void): (obj: KubeObject) => void {
    return expectPodWrites(this.#d.expectations, key, onEach);
  }

  /** Begins (or keeps) the rollout trace from the current to the update revision. */
  trace(
    workload: W,
    key: string,
    attrs: Omit<RolloutAttributes, 'namespace' | 'name'>,
    log: ReconcileLog,
  ): Promise<TracedRollout> {
    return traceRollout(this.traces, workload, key, attrs, log);
  }

  /** The kind-independent half of the round's step context. */
  stepContext(
    key: string,
    log: ReconcileLog,
    record: RolloutRecord | undefined,
    expectUpdated: (obj: KubeObject) => void,
  ): WorkloadSync {
    return workloadSync({
      key,
      now: this.now,
      log,
      client: this.#d.client,
      traces: this.traces,
      record,
      expectUpdated,
    });
  }

  /** The workload is gone: its expectations, trace, verdict, kept writes and cadence with it. */
  forget(key: string, req: Request): void {
    this.#d.expectations.deleteScale(key);
    this.#d.expectations.deleteUpdated(key);
    this.traces.forget(key);
    for (const other of this.#others) other.forget(key);
    this.specGuard.forget(key);
    this.ownWrites.forget(req.namespace, req.name);
    this.statusCadence.forget(StatusCadence.keyOf(req.namespace, req.name));
  }
}
