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
import type { EventRecorder, KubeObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { type ControllerRevision, templateFromRevision } from '@regatta/revision';
import type { Expectations, Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import {
  type KubeWriter,
  type ObjectReader,
  type RolloutTracer,
  WorkloadRound,
  failureOf,
  runRound,
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
  readonly #gates: AstsFeatureGates;
  /** Spec verdicts, rollout traces, own status writes and the status cadence, per StatefulSet (ADR 0072). */
  readonly #round: WorkloadRound<StatefulSetObject, StatefulSet>;

  constructor(deps: StatefulSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...ASTS_FEATURE_GATES, ...deps.gates };
    this.#round = new WorkloadRound(
      { gvk: STATEFULSET_GVK, name: 'StatefulSet', reader: deps.statefulsets, specProblem },
      deps,
    );
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = statefulSetKey(req.namespace, req.name);
    const opened = this.#round.open(req, key, ctx.log);
    if ('done' in opened) return opened.done;
    const set = opened.workload;
    const round = this.#round;
    const d: SyncDeps = this.#d;

    const expectUpdated = round.expectWrites(key);
    const pods = await claimStep(d, set, ctx.log, expectUpdated);
    const revisions = await revisionsStep(d, set);
    const [currentName, updateName] = [nameOf(revisions.currentRevision), nameOf(revisions.updateRevision)];
    const { currentRevision, updateRevision } = revisions;
    await preDownloadStep(
      this.#d.imagePreDownload,
      this.#gates,
      set,
      currentRevision,
      updateRevision,
      ctx.log,
    );
    const spec = effectiveSpec(set);
    const ru = spec.updateStrategy?.rollingUpdate;
    const { record, ofUpdate } = await round.trace(
      set,
      key,
      {
        strategy: spec.updateType === 'OnDelete' ? 'OnDelete' : (ru?.podUpdatePolicy ?? 'ReCreate'),
        from: currentName,
        to: updateName,
        partition: String(ru?.partition ?? 0),
        replicas: spec.replicas,
      },
      ctx.log,
    );
    const s: AstsSync = {
      ...round.stepContext(key, ctx.log, ofUpdate, expectUpdated),
      d,
      set,
      spec,
      gates: this.#gates,
      refreshed: new Map(),
      failures: [],
      resizeRefused: new Map(),
      ownWrites: round.ownWrites,
    };

    const { slots, condemned } = this.#slots(s, pods, revisions.currentRevision, revisions.updateRevision);
    return runRound({
      deleting: Boolean(set.metadata?.deletionTimestamp),
      manage: () =>
        failureOf(
          () => this.#act(s, pods, slots, condemned, revisions.sorted, revisions.updateRevision),
          (err) => ({ err }),
        ),
      status: (failure) =>
        statusStep(s, {
          slots,
          condemned,
          currentRevision: currentName,
          updateRevision: updateName,
          collisionCount: revisions.collisionCount,
          cadence: round.statusCadence,
          failed: failure !== undefined,
        }),
      follow: (status) =>
        round.traces.follow(
          set,
          key,
          record,
          {
            ...status,
            expectedUpdatedReplicas: Math.max(0, spec.replicas - (ru?.partition ?? 0)),
            paused: ru?.paused === true,
          },
          ctx.log,
        ),
      history: (status) =>
        historyStep(s, {
          pods,
          sortedRevisions: revisions.sorted,
          currentRevision: status.currentRevision,
          updateRevision: updateName,
        }),
      delays: () => s.delays,
    });
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
