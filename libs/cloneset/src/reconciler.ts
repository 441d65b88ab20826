/**
 * The CloneSet reconciler (docs/cloneset.md "What it does"; OpenKruise `pkg/controller/cloneset/cloneset_controller.go`
 * `doReconcile`/`syncCloneSet`). It reads the CloneSet, its pods, claims and revisions from caches and runs named
 * steps, each in a file of `sync/`: claim, revisions, rollout trace, scale or else update (one mutation wave per
 * reconcile), status, history. The writes go through the shared controls of `@regatta/workload`,
 * `@regatta/lifecycle`, `@regatta/inplace-update` and `@regatta/revision`.
 */
import type { CloneSet } from '@regatta/api';
import type { ImagePreDownloadControl } from '@regatta/image-predownload';
import type { EventRecorder, KubeObject } from '@regatta/kube';
import type { Expectations, Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import {
  type KubeWriter,
  type ObjectReader,
  type RolloutTracer,
  WorkloadRound,
  failureOf,
  runRound,
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
  readonly #random: RandomSource;
  readonly #gates: CloneSetFeatureGates;
  /** Spec verdicts, rollout traces, own status writes and the status cadence, per CloneSet (ADR 0072). */
  readonly #round: WorkloadRound<CloneSetObject, CloneSet>;

  constructor(deps: CloneSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...CLONESET_FEATURE_GATES, ...deps.gates };
    this.#random = deps.random ?? Math.random;
    const kind = { gvk: CLONESET_GVK, name: 'CloneSet', reader: deps.clonesets, specProblem };
    this.#round = new WorkloadRound(kind, deps);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = cloneSetKey(req.namespace, req.name);
    const round = this.#round;
    const opened = round.open(req, key, ctx.log);
    if ('done' in opened) return opened.done;
    const cs = opened.workload;

    const d: SyncDeps = this.#d;
    const expectUpdated = round.expectWrites(key);
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
    const strategy = spec.updateStrategy;
    const { record, ofUpdate } = await round.trace(
      cs,
      key,
      {
        from: currentName,
        to: updateName,
        strategy: strategy?.type ?? 'ReCreate',
        replicas: spec.replicas ?? 1,
        partition: String(strategy?.partition ?? 0),
      },
      ctx.log,
    );
    const s: CloneSetSync = {
      ...round.stepContext(key, ctx.log, ofUpdate, expectUpdated),
      d,
      cs,
      spec,
      gates: this.#gates,
      random: this.#random,
      ownWrites: round.ownWrites,
      resizeRefused: new Map(),
    };

    return runRound<StepFailure, Awaited<ReturnType<typeof statusStep>>['status']>({
      deleting: Boolean(cs.metadata?.deletionTimestamp),
      manage: () => this.#scaleOrUpdate(s, { ...claimed, pvcs }, revisions),
      status: async (failure) => {
        const { status, requeueAfterMs, writeAfterMs } = await statusStep(s, {
          pods: claimed.activePods,
          updateRevision: updateName,
          currentRevision: currentName,
          collisionCount: revisions.collisionCount,
          failure,
          cadence: round.statusCadence,
        });
        s.delays.push(requeueAfterMs, writeAfterMs);
        return status;
      },
      follow: (status) =>
        round.traces.follow(cs, key, record, { ...status, paused: strategy?.paused === true }, ctx.log),
      history: (status) =>
        historyStep(s, {
          pods: claimed.activePods,
          sortedRevisions: revisions.sorted,
          currentRevision: status.currentRevision,
          updateRevision: updateName,
        }),
      delays: (status) => {
        // a ready pod turns available minReadySeconds after its Ready transition: look again then (OpenKruise waits
        // the whole minReadySeconds from now; when no pod is waiting on time alone, that is still the fallback)
        const minReady = spec.minReadySeconds ?? 0;
        if (minReady > 0 && status.availableReplicas !== status.readyReplicas)
          s.delays.push(
            msUntilNextAvailable(claimed.activePods, minReady, this.#round.now()) || minReady * 1000,
          );
        // pods that are scheduled but not yet Normal (e.g. waiting for a preNormal hook) are re-checked by their events
        return s.delays;
      },
    });
  }

  /** Scale, or else update: the failed step, if one failed. */
  async #scaleOrUpdate(
    s: CloneSetSync,
    claimed: Awaited<ReturnType<typeof claimStep>>,
    revisions: Awaited<ReturnType<typeof revisionsStep>>,
  ): Promise<StepFailure | undefined> {
    let scaled = false;
    const scaleFailure = await failureOf(
      async () => {
        scaled = await scaleStep(s, {
          pods: claimed.activePods,
          pvcs: claimed.pvcs,
          currentRevision: revisions.currentRevision,
          updateRevision: revisions.updateRevision,
        });
      },
      (err): StepFailure => ({ type: 'FailedScale', err }),
    );
    if (scaleFailure || scaled) return scaleFailure;
    return failureOf(
      () =>
        updateStep(s, {
          pods: claimed.activePods,
          revisions: revisions.sorted,
          currentRevision: nameOf(revisions.currentRevision),
          updateRevision: revisions.updateRevision,
        }),
      (err): StepFailure => ({ type: 'FailedUpdate', err }),
    );
  }
}
