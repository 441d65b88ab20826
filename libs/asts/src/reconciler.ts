/**
 * The Advanced StatefulSet reconciler (docs/asts.md "What it does"; OpenKruise
 * `pkg/controller/statefulset/statefulset_controller.go` `sync` and `stateful_set_control.go` `updateStatefulSet`).
 * It reads the set, its pods, claims and revisions from caches and runs named steps, each in a file of `sync/`:
 * claim, revisions, rollout trace, slots, replicas (create / replace / fix), condemned pods (scale down), rolling
 * update, status, history. Writes go through the shared controls of `@regatta/workload`, `@regatta/lifecycle`,
 * `@regatta/inplace-update` and `@regatta/revision`.
 */
import type { StatefulSet } from '@regatta/api';
import type { ImagePreDownloadControl } from '@regatta/image-predownload';
import { type EventRecorder, type KubeObject, OwnWrites, refuseInvalidSpec, SpecGuard } from '@regatta/kube';
import { InPlaceUpdateControl } from '@regatta/inplace-update';
import { LifecycleControl, type Pod } from '@regatta/lifecycle';
import { type ControllerRevision, templateFromRevision } from '@regatta/revision';
import {
  type Expectations,
  type Reconciler,
  type ReconcileContext,
  type Request,
  type Result,
  waitForPendingWrites,
} from '@regatta/runtime';
import {
  type KubeWriter,
  type ObjectReader,
  StatusCadence,
  type RolloutTracer,
  RolloutTraceControl,
} from '@regatta/workload';
import { CONTROLLER_NAME } from './events.js';
import {
  isCurrentRevisionNeeded,
  isHealthy,
  newStatefulSetPod,
  ordinalOf,
  ordinalRange,
  scaleBudgetOf,
  splitPods,
} from './planning/index.js';
import { specProblem } from './spec-guard.js';
import {
  ASTS_FEATURE_GATES,
  type AstsFeatureGates,
  STATEFULSET_GVK,
  type StatefulSetObject,
  effectiveSpec,
  nameOf,
  statefulSetKey,
} from './statefulset-object.js';
import { claimStep } from './sync/claim.js';
import { condemnedStep, fixCondemnedClaims } from './sync/condemned.js';
import type { AstsSync, SyncDeps } from './sync/context.js';
import { historyStep } from './sync/history.js';
import { preDownloadStep } from './sync/pre-download.js';
import { replicasStep } from './sync/replicas.js';
import { revisionsStep } from './sync/revisions.js';
import { rollingUpdateStep } from './sync/rolling-update.js';
import { statusStep } from './sync/status.js';

export { CONTROLLER_NAME };

export interface StatefulSetReconcilerDeps {
  client: KubeWriter;
  statefulsets: ObjectReader<KubeObject>;
  pods: ObjectReader<KubeObject>;
  pvcs: ObjectReader<KubeObject>;
  revisions: ObjectReader<KubeObject>;
  expectations: Expectations;
  recorder: EventRecorder;
  now?: () => Date;
  /** Rollout traces (one trace per rollout, context stored on the set; span prefix `statefulset`). */
  rollouts?: RolloutTracer;
  gates?: Partial<AstsFeatureGates>;
  /**
   * Creates and deletes the rollouts' ImagePullJobs (image pre-download, gates `KruiseDaemon` and
   * `PreDownloadImageForInPlaceUpdate`); none: no pre-download.
   */
  imagePreDownload?: ImagePreDownloadControl;
}

export class StatefulSetReconciler implements Reconciler {
  readonly #d: StatefulSetReconcilerDeps;
  readonly #now: () => Date;
  readonly #gates: AstsFeatureGates;
  readonly #specGuard = new SpecGuard(specProblem);
  readonly #traces: RolloutTraceControl;
  /** Status writes the cache may not show yet (a condition written twice would move its transition time). */
  readonly #ownWrites = new OwnWrites();
  /** When each StatefulSet's status was last written (counter-only changes wait for the interval, ADR 0050). */
  readonly #statusCadence = new StatusCadence();

  constructor(deps: StatefulSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...ASTS_FEATURE_GATES, ...deps.gates };
    this.#now = deps.now ?? (() => new Date());
    this.#traces = new RolloutTraceControl({
      client: deps.client,
      kind: STATEFULSET_GVK,
      tracer: deps.rollouts,
      now: this.#now,
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = statefulSetKey(req.namespace, req.name);
    const cached = this.#d.statefulsets.get(req.namespace, req.name) as StatefulSetObject | undefined;
    if (!cached) {
      this.#forget(key);
      this.#ownWrites.forget(req.namespace, req.name);
      this.#statusCadence.forget(StatusCadence.keyOf(req.namespace, req.name));
      return {};
    }
    const set: StatefulSetObject = { ...this.#ownWrites.view(cached), ...STATEFULSET_GVK };
    const waiting = this.#waiting(key, set, req, ctx);
    if (waiting) return waiting;

    const d: SyncDeps = this.#d;
    const expectUpdated = (obj: KubeObject): void => {
      const rv = obj.metadata?.resourceVersion;
      if (rv) d.expectations.expectUpdated(key, nameOf(obj), rv);
    };
    const pods = await claimStep(d, set, ctx.log, expectUpdated);
    const revisions = await revisionsStep(d, set);
    const updateName = nameOf(revisions.updateRevision);
    const currentName = nameOf(revisions.currentRevision);
    await preDownloadStep(
      this.#d.imagePreDownload,
      this.#gates,
      set,
      revisions.currentRevision,
      revisions.updateRevision,
      ctx.log,
    );
    const spec = effectiveSpec(set);
    const ru = spec.updateStrategy?.rollingUpdate;
    const record = await this.#traces.sync(
      set,
      key,
      {
        from: currentName,
        to: updateName,
        strategy: spec.updateType === 'OnDelete' ? 'OnDelete' : (ru?.podUpdatePolicy ?? 'ReCreate'),
        replicas: spec.replicas,
        partition: String(ru?.partition ?? 0),
      },
      ctx.log,
    );
    const writes = { client: d.client, onWritten: expectUpdated, now: this.#now };
    const s: AstsSync = {
      d,
      set,
      key,
      spec,
      gates: this.#gates,
      now: this.#now,
      log: ctx.log,
      lifecycle: new LifecycleControl(writes),
      inPlace: new InPlaceUpdateControl(writes),
      traces: this.#traces,
      record: record && record.to === updateName ? record : undefined,
      delays: [],
      refreshed: new Map(),
      failures: [],
      expectUpdated,
      ownWrites: this.#ownWrites,
    };

    const { slots, condemned } = this.#slots(s, pods, revisions.currentRevision, revisions.updateRevision);
    let err: unknown;
    if (!set.metadata?.deletionTimestamp) {
      try {
        await this.#act(s, pods, slots, condemned, revisions.sorted, revisions.updateRevision);
      } catch (e) {
        err = e;
      }
    }
    const status = await statusStep(s, {
      slots,
      condemned,
      currentRevision: currentName,
      updateRevision: updateName,
      collisionCount: revisions.collisionCount,
      cadence: this.#statusCadence,
      failed: err !== undefined,
    });
    await this.#traces.follow(
      set,
      key,
      record,
      {
        ...status,
        expectedUpdatedReplicas: Math.max(0, spec.replicas - (ru?.partition ?? 0)),
        paused: ru?.paused === true,
      },
      ctx.log,
    );
    await historyStep(s, {
      pods,
      sortedRevisions: revisions.sorted,
      currentRevision: status.currentRevision,
      updateRevision: updateName,
    });
    // a failure is retried with the queue's back-off, not at a fixed delay
    if (err !== undefined) throw err;
    const delay = s.delays.filter((ms) => ms > 0);
    return delay.length > 0 ? { requeueAfterMs: Math.min(...delay) } : {};
  }

  /** Slots by ordinal (missing ones filled with the pod to create, at the revision the partition asks for). */
  #slots(
    s: AstsSync,
    pods: Pod[],
    currentRevision: ControllerRevision,
    updateRevision: ControllerRevision,
  ): { slots: (Pod | undefined)[]; condemned: Pod[] } {
    const { spec, set } = s;
    const start = this.#gates.StatefulSetStartOrdinal ? (spec.ordinals?.start ?? 0) : 0;
    const range = ordinalRange(spec.replicas, spec.reserveOrdinals, start);
    const { slots, condemned } = splitPods(pods, range);
    const ru = spec.updateStrategy?.rollingUpdate;
    const choice = {
      updateType: spec.updateType,
      hasRollingUpdate: Boolean(ru),
      unordered: Boolean(ru?.unorderedUpdate),
      partition: ru?.partition ?? 0,
      start,
      currentReplicas: set.status?.currentReplicas ?? 0,
      updateRevision: nameOf(updateRevision),
      preparingUpdateAsUpdate: this.#gates.PreparingUpdateAsUpdate,
    };
    for (let o = range.start; o < range.end; o++) {
      if (range.reserve.has(o) || slots[o - start] !== undefined) continue;
      const rev = isCurrentRevisionNeeded(choice, o, slots) ? currentRevision : updateRevision;
      slots[o - start] = newStatefulSetPod({
        set,
        template: templateFromRevision(rev),
        revision: nameOf(rev),
        ordinal: o,
        state: 'Normal',
        podIndexLabel: this.#gates.PodIndexLabel,
        now: s.now(),
      });
    }
    return { slots, condemned };
  }

  /** Replicas, claim references of condemned pods, scale down, then the rolling update (unless OnDelete). */
  async #act(
    s: AstsSync,
    pods: Pod[],
    slots: (Pod | undefined)[],
    condemned: Pod[],
    revisions: ControllerRevision[],
    updateRevision: ControllerRevision,
  ): Promise<void> {
    const budget = scaleBudgetOf(s.spec.scaleStrategy?.maxUnavailable, s.spec.replicas);
    const outcome = await replicasStep(s, slots, nameOf(updateRevision), budget);
    if (outcome.err !== undefined) throw outcome.err;
    if (outcome.exit) return;
    if (this.#gates.StatefulSetAutoDeletePVC) await fixCondemnedClaims(s, condemned);
    if (await condemnedStep(s, condemned, firstUnhealthy(slots, condemned))) return;
    if (s.spec.updateType === 'OnDelete') return;
    await rollingUpdateStep(s, { pods, slots, revisions, updateRevision });
  }

  /**
   * Why not to act now: a StatefulSet failing the admission rules (an event says what to fix), or writes of an earlier
   * round the cache does not show yet (looked at again after a short delay).
   */
  #waiting(key: string, set: StatefulSetObject, req: Request, ctx: ReconcileContext): Result | undefined {
    const problem = this.#specGuard.problem(key, set as unknown as StatefulSet);
    if (problem) return refuseInvalidSpec(set, 'StatefulSet', problem, this.#d.recorder, ctx.log);
    return waitForPendingWrites(
      this.#d.expectations,
      key,
      (name) => this.#d.pods.get(req.namespace, name)?.metadata?.resourceVersion ?? undefined,
      ctx.log,
    );
  }

  #forget(key: string): void {
    this.#d.expectations.deleteScale(key);
    this.#d.expectations.deleteUpdated(key);
    this.#traces.forget(key);
    this.#specGuard.forget(key);
  }
}

/** The lowest-ordinal unhealthy pod among the slots, then the condemned ones. */
function firstUnhealthy(slots: readonly (Pod | undefined)[], condemned: readonly Pod[]): Pod | undefined {
  let first: Pod | undefined;
  for (const p of [...slots, ...condemned]) {
    if (!p || isHealthy(p)) continue;
    if (!first || ordinalOf(p) < ordinalOf(first)) first = p;
  }
  return first;
}
