/**
 * The CloneSet reconciler (docs/cloneset.md "What it does"; OpenKruise `pkg/controller/cloneset/cloneset_controller.go`
 * `doReconcile`/`syncCloneSet`). It reads the CloneSet, its pods, claims and revisions from caches and runs named
 * steps, each in a file of `sync/`: claim, revisions, rollout trace, scale or else update (one mutation wave per
 * reconcile), status, history. The writes go through the shared controls of `@regatta/workload`,
 * `@regatta/lifecycle`, `@regatta/inplace-update` and `@regatta/revision`.
 */
import type { CloneSet } from '@regatta/api';
import type { ImagePreDownloadControl } from '@regatta/image-predownload';
import { type EventRecorder, type KubeObject, OwnWrites, refuseInvalidSpec, SpecGuard } from '@regatta/kube';
import { InPlaceUpdateControl } from '@regatta/inplace-update';
import { LifecycleControl } from '@regatta/lifecycle';
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
  type RolloutTracer,
  RolloutTraceControl,
  StatusCadence,
} from '@regatta/workload';
import {
  CLONESET_FEATURE_GATES,
  CLONESET_GVK,
  type CloneSetFeatureGates,
  type CloneSetObject,
  cloneSetKey,
  nameOf,
  rolloutSpec,
} from './cloneset-object.js';
import { CONTROLLER_NAME } from './events.js';
import type { RandomSource } from './planning/index.js';
import { specProblem } from './spec-guard.js';
import { msUntilNextAvailable } from './status.js';
import { claimStep } from './sync/claim.js';
import type { CloneSetSync, SyncDeps } from './sync/context.js';
import { historyStep } from './sync/history.js';
import { preDownload } from './sync/pre-download.js';
import { cleanupPvcsStep } from './sync/pvc-cleanup.js';
import { revisionsStep } from './sync/revisions.js';
import { scaleStep } from './sync/scale.js';
import { type StepFailure, statusStep } from './sync/status.js';
import { updateStep } from './sync/update.js';

export {
  CLONESET_FEATURE_GATES,
  CLONESET_GVK,
  CONTROLLER_NAME,
  cloneSetKey,
  rolloutSpec,
  type CloneSetFeatureGates,
  type CloneSetObject,
  type KubeWriter,
  type ObjectReader,
};

export interface CloneSetReconcilerDeps {
  client: KubeWriter;
  clonesets: ObjectReader<KubeObject>;
  pods: ObjectReader<KubeObject>;
  pvcs: ObjectReader<KubeObject>;
  revisions: ObjectReader<KubeObject>;
  expectations: Expectations;
  recorder: EventRecorder;
  now?: () => Date;
  random?: RandomSource;
  /** Rollout traces (one trace per rollout, context stored on the CloneSet). */
  rollouts?: RolloutTracer;
  /**
   * Creates and deletes the rollouts' ImagePullJobs (image pre-download, gates `KruiseDaemon` and
   * `PreDownloadImageForInPlaceUpdate`); none: no pre-download.
   */
  imagePreDownload?: ImagePreDownloadControl;
  /** Feature gates (OpenKruise's names and defaults, {@link CLONESET_FEATURE_GATES}). */
  gates?: Partial<CloneSetFeatureGates>;
}

export class CloneSetReconciler implements Reconciler {
  readonly #d: CloneSetReconcilerDeps;
  readonly #now: () => Date;
  readonly #random: RandomSource;
  readonly #gates: CloneSetFeatureGates;
  readonly #specGuard = new SpecGuard(specProblem);
  readonly #traces: RolloutTraceControl;
  /** Status writes the cache may not show yet (a condition written twice would move its transition time). */
  readonly #ownWrites = new OwnWrites();
  /** When each CloneSet's status was last written (counter-only changes wait for the interval, ADR 0050). */
  readonly #statusCadence = new StatusCadence();

  constructor(deps: CloneSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...CLONESET_FEATURE_GATES, ...deps.gates };
    this.#now = deps.now ?? (() => new Date());
    this.#random = deps.random ?? Math.random;
    this.#traces = new RolloutTraceControl({
      client: deps.client,
      kind: CLONESET_GVK,
      tracer: deps.rollouts,
      now: this.#now,
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = cloneSetKey(req.namespace, req.name);
    const cached = this.#d.clonesets.get(req.namespace, req.name) as CloneSetObject | undefined;
    if (!cached) {
      this.#forget(key);
      this.#ownWrites.forget(req.namespace, req.name);
      this.#statusCadence.forget(StatusCadence.keyOf(req.namespace, req.name));
      return {};
    }
    const cs: CloneSetObject = {
      ...this.#ownWrites.view(cached),
      apiVersion: CLONESET_GVK.apiVersion,
      kind: CLONESET_GVK.kind,
    };
    const waiting = this.#waiting(key, cs, req, ctx);
    if (waiting) return waiting;

    const d: SyncDeps = this.#d;
    const expectUpdated = (obj: KubeObject): void => {
      const rv = obj.metadata?.resourceVersion;
      if (rv) d.expectations.expectUpdated(key, nameOf(obj), rv);
    };
    const claimed = await claimStep(d, cs, ctx.log, expectUpdated);
    // with PVC reuse disabled, scaling sees only the claims of active pods (cleanupPVCs' result)
    const pvcs = await cleanupPvcsStep(d, cs, key, claimed);
    const revisions = await revisionsStep(d, cs);
    const updateName = nameOf(revisions.updateRevision);
    const currentName = nameOf(revisions.currentRevision);
    await preDownload(
      this.#d.imagePreDownload,
      this.#gates,
      cs,
      revisions.currentRevision,
      revisions.updateRevision,
      ctx.log,
    );

    const spec = rolloutSpec(cs);
    const record = await this.#traces.sync(
      cs,
      key,
      {
        from: currentName,
        to: updateName,
        strategy: spec.updateStrategy?.type ?? 'ReCreate',
        replicas: spec.replicas ?? 1,
        partition: String(spec.updateStrategy?.partition ?? 0),
      },
      ctx.log,
    );
    const writes = { client: d.client, onWritten: expectUpdated, now: this.#now };
    const s: CloneSetSync = {
      d,
      cs,
      key,
      spec,
      gates: this.#gates,
      random: this.#random,
      now: this.#now,
      log: ctx.log,
      lifecycle: new LifecycleControl(writes),
      inPlace: new InPlaceUpdateControl(writes),
      traces: this.#traces,
      // a rollout whose last pods are seen done after its end still gets their spans
      record: record && record.to === updateName ? record : undefined,
      delays: [],
      expectUpdated,
      ownWrites: this.#ownWrites,
    };

    const failure = cs.metadata?.deletionTimestamp
      ? undefined
      : await this.#scaleOrUpdate(s, { ...claimed, pvcs }, revisions);
    const { status, requeueAfterMs, writeAfterMs } = await statusStep(s, {
      pods: claimed.activePods,
      updateRevision: updateName,
      currentRevision: currentName,
      collisionCount: revisions.collisionCount,
      failure,
      cadence: this.#statusCadence,
    });
    s.delays.push(requeueAfterMs, writeAfterMs);
    await this.#traces.follow(
      cs,
      key,
      record,
      { ...status, paused: spec.updateStrategy?.paused === true },
      ctx.log,
    );
    await historyStep(s, {
      pods: claimed.activePods,
      sortedRevisions: revisions.sorted,
      currentRevision: status.currentRevision,
      updateRevision: updateName,
    });

    // a failure is retried with the queue's back-off, not at a fixed delay
    if (failure) throw failure.err;
    // a ready pod turns available minReadySeconds after its Ready transition: look again then (OpenKruise waits the
    // whole minReadySeconds from now; when no pod is waiting on time alone, that is still the fallback)
    const minReady = spec.minReadySeconds ?? 0;
    if (minReady > 0 && status.availableReplicas !== status.readyReplicas)
      s.delays.push(msUntilNextAvailable(claimed.activePods, minReady, this.#now()) || minReady * 1000);
    // pods that are scheduled but not yet Normal (e.g. waiting for a preNormal hook) are re-checked by their events
    const delay = s.delays.filter((ms) => ms > 0);
    return delay.length > 0 ? { requeueAfterMs: Math.min(...delay) } : {};
  }

  /** Scale, or else update: the failed step, if one failed. */
  async #scaleOrUpdate(
    s: CloneSetSync,
    claimed: Awaited<ReturnType<typeof claimStep>>,
    revisions: Awaited<ReturnType<typeof revisionsStep>>,
  ): Promise<StepFailure | undefined> {
    let scaled: boolean;
    try {
      scaled = await scaleStep(s, {
        pods: claimed.activePods,
        pvcs: claimed.pvcs,
        currentRevision: revisions.currentRevision,
        updateRevision: revisions.updateRevision,
      });
    } catch (err) {
      return { type: 'FailedScale', err };
    }
    if (scaled) return undefined;
    try {
      await updateStep(s, {
        pods: claimed.activePods,
        revisions: revisions.sorted,
        currentRevision: nameOf(revisions.currentRevision),
        updateRevision: revisions.updateRevision,
      });
    } catch (err) {
      return { type: 'FailedUpdate', err };
    }
    return undefined;
  }

  /**
   * Why not to act now: a CloneSet failing the admission rules (an event says what to fix), or writes of an earlier
   * round the cache does not show yet (looked at again after a short delay).
   */
  #waiting(key: string, cs: CloneSetObject, req: Request, ctx: ReconcileContext): Result | undefined {
    const problem = this.#specGuard.problem(key, cs as unknown as CloneSet);
    if (problem) return refuseInvalidSpec(cs, 'CloneSet', problem, this.#d.recorder, ctx.log);
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
