/**
 * The Advanced DaemonSet reconciler (docs/ads.md "What it does"; OpenKruise
 * `pkg/controller/daemonset/daemonset_controller.go` `syncDaemonSet`). It reads the DaemonSet, its pods, revisions
 * and the nodes from caches and runs named steps, each in a file of `sync/`: claim, revisions, rollout trace,
 * manage (pods where they should be), in-place refresh, rolling update (only when manage wrote nothing and the
 * cache shows every earlier write), status, history.
 */
import { type ImagePreDownloadControl, preDownloadSettings } from '@regatta/image-predownload';
import { resizeInfeasible, resizeMessages } from '@regatta/inplace-update';
import { EventReasons, type KubeObject, controllerRef, isSelectorEmpty } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import { forEachLimited } from '@regatta/runtime';
import { type ControllerRevision, type PodTemplate, templateFromRevision } from '@regatta/revision';
import {
  type ObjectReader,
  type RolloutTracer,
  type StatusCadence,
  WorkloadRound,
  runRound,
  soonestRequeue,
} from '@regatta/workload';
import {
  DAEMONSET_FEATURE_GATES,
  DAEMONSET_GVK,
  type DaemonSetFeatureGates,
  type DaemonSetObject,
  TEMPLATE_GENERATION_ANNOTATION,
  daemonSetKey,
  daemonSetRollout,
  nameOf,
} from './daemonset-object.js';
import { REASONS, messages } from './events.js';
import { daemonSetPreDownloadIgnore, preDownloadStep } from './image-predownload.js';
import {
  FailedPodBackoff,
  type Node,
  type NodeFacts,
  type SchedulingSpec,
  nodeShouldRunDaemonPod,
} from './planning/index.js';
import { specProblem } from './spec-guard.js';
import { claimStep } from './sync/claim.js';
import { type DaemonSetSync, POD_WRITE_CONCURRENCY, type SyncDeps } from './sync/context.js';
import { historyStep } from './sync/history.js';
import { manageStep } from './sync/manage.js';
import { revisionsStep } from './sync/revisions.js';
import { statusStep } from './sync/status.js';
import { NodeSpans, beginRollout } from './sync/trace.js';
import { rollingUpdateStep } from './sync/update.js';

export interface DaemonSetReconcilerDeps extends SyncDeps {
  daemonsets: ObjectReader<KubeObject>;
  now?: () => Date;
  random?: () => number;
  /** Rollout traces (one trace per rollout, context stored on the DaemonSet). */
  rollouts?: RolloutTracer;
  gates?: Partial<DaemonSetFeatureGates>;
  /**
   * Each DaemonSet's last status write (docs/adr/0050); default: one of `STATUS_WRITE_INTERVAL_MS`. Unit tests that
   * reconcile on a frozen clock pass an interval of 0.
   */
  statusCadence?: StatusCadence;
  /**
   * Creates and deletes the rollouts' ImagePullJobs (image pre-download, gates `KruiseDaemon` and
   * `PreDownloadImageForDaemonSetUpdate`); none: no pre-download.
   */
  imagePreDownload?: ImagePreDownloadControl;
}

export class DaemonSetReconciler implements Reconciler {
  readonly #d: DaemonSetReconcilerDeps;
  readonly #random: () => number;
  readonly #gates: DaemonSetFeatureGates;
  readonly #spans = new NodeSpans();
  readonly #failedBackoff = new FailedPodBackoff();
  /** Spec verdicts, rollout traces and the status cadence, per DaemonSet (ADR 0072). */
  readonly #round: WorkloadRound<DaemonSetObject>;

  constructor(deps: DaemonSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...DAEMONSET_FEATURE_GATES, ...deps.gates };
    this.#random = deps.random ?? Math.random;
    const kind = { gvk: DAEMONSET_GVK, name: 'DaemonSet', reader: deps.daemonsets, specProblem };
    this.#round = new WorkloadRound(kind, deps, [this.#spans, this.#failedBackoff]);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = daemonSetKey(req.namespace, req.name);
    const round = this.#round;
    const ds = round.read(req, key);
    if (!ds || ds.metadata?.deletionTimestamp) return {};
    if (!ds.spec?.selector || isSelectorEmpty(ds.spec.selector)) {
      void this.#d.recorder.warning(ds, REASONS.SelectingAll, messages.selectingAll());
      return {};
    }
    const refused = round.refused(key, ds, ctx.log);
    if (refused) return refused;

    const d = this.#d;
    const written = { pods: 0 };
    const expectUpdated = round.expectWrites(key, () => written.pods++);
    // The expectations gate, then the pods, read in the same tick (no await between): the pods read are at least what
    // the gate counted as seen. Read before it (and awaited in between) they could lack a pod created last round whose
    // create reached the cache meanwhile: the gate would open on a node that looks empty and manage would create a
    // second pod there. Kubernetes' DaemonSet controller likewise lists pods only after SatisfiedExpectations.
    const waiting = round.pending(key, req, ctx.log);
    const pods = await claimStep(d, ds, ctx.log, expectUpdated);
    const revisions = await revisionsStep(d, ds);
    const rollout = daemonSetRollout(ds);
    const record = await beginRollout(round.traces, ds, key, revisions.hash, rollout, ctx.log);
    const nodeObjects = d.nodes.list() as Node[];
    const templateSpec = (ds.spec.template?.spec ?? {}) as SchedulingSpec;
    const nodes: NodeFacts[] = nodeObjects.map((n) => ({
      name: nameOf(n),
      eligibility: nodeShouldRunDaemonPod(templateSpec, n),
    }));
    const s: DaemonSetSync = {
      ...round.stepContext(key, ctx.log, record, expectUpdated),
      d,
      ds,
      rollout,
      gates: this.#gates,
      random: this.#random,
      failedBackoff: this.#failedBackoff,
      nodes,
      nodeObjects,
      hash: revisions.hash,
      templateGeneration: ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION],
    };

    if (waiting) {
      // writes of an earlier round the cache does not show yet: the status only, without observedGeneration
      await statusStep(s, pods, revisions.collisionCount, false, {
        control: round.statusCadence,
        urgent: false,
      });
      // a deferred status write is made by the next reconcile: no later than the interval's end
      return soonestRequeue([waiting.requeueAfterMs ?? 0, ...s.delays], waiting);
    }
    return runRound({
      manage: async () => {
        const errors = await this.#manage(s, pods, revisions, written, req, ctx);
        return errors.length > 0 ? { err: errors[0] } : undefined;
      },
      status: async (failure) => {
        const seen = ownedPods(d, ds);
        const status = await statusStep(s, seen, revisions.collisionCount, true, {
          control: round.statusCadence,
          urgent: failure !== undefined,
        });
        return { seen, status };
      },
      follow: ({ status }) =>
        this.#spans.follow(round.traces, {
          ds,
          key,
          record,
          nodes,
          pods,
          status,
          rollout,
          now: this.#round.now(),
          log: ctx.log,
        }),
      history: ({ seen }) => historyStep(s, seen, revisions.sorted, revisions.updateRevision),
      delays: () => s.delays,
    });
  }

  /**
   * Manage (pods where they should be), then, when manage wrote nothing the cache does not show yet, the in-place
   * refresh and the rolling update: the errors, first one first.
   */
  async #manage(
    s: DaemonSetSync,
    pods: Pod[],
    revisions: Awaited<ReturnType<typeof revisionsStep>>,
    written: { pods: number },
    req: Request,
    ctx: ReconcileContext,
  ): Promise<unknown[]> {
    const { d, ds, key, rollout } = s;
    const errors: unknown[] = [];
    try {
      await this.#preDownload(ds, rollout, revisions, ctx.log);
      const managed = await manageStep(s, pods, revisions.updateRevision);
      errors.push(...managed.errors);
      // the rollout decides on what the cache shows: after manage's writes only once it shows them (at once in
      // tests; on the next round with the bus)
      if (errors.length === 0 && (!managed.wrote || !this.#round.pending(key, req, ctx.log))) {
        const current = managed.wrote ? ownedPods(d, ds) : pods;
        const before = written.pods;
        await this.#refreshInPlace(s, current);
        const refreshed = written.pods > before;
        if (!refreshed && !rollout.paused && rollout.type === 'RollingUpdate') {
          const updated = await rollingUpdateStep(s, {
            pods: current,
            revisions: revisions.sorted,
            updateRevision: revisions.updateRevision,
          });
          errors.push(...updated.errors);
        }
      }
    } catch (err) {
      errors.push(err);
    }
    return errors;
  }

  /**
   * The image pre-download step (docs/ads.md "Image pre-download"), when gated on: the update revision's jobs during
   * a rollout, none after it. A failure is logged and the rollout goes on, as upstream.
   */
  async #preDownload(
    ds: DaemonSetObject,
    rollout: ReturnType<typeof daemonSetRollout>,
    revisions: { hash: string; sorted: readonly ControllerRevision[]; updateRevision: ControllerRevision },
    log: ReconcileContext['log'],
  ): Promise<void> {
    const control = this.#d.imagePreDownload;
    if (!control || !this.#gates.KruiseDaemon || !this.#gates.PreDownloadImageForDaemonSetUpdate) return;
    const { updateRevision } = revisions;
    await control.sync(
      preDownloadStep(ds, revisions.hash),
      ds,
      updateRevision,
      () => ({
        ownerKind: DAEMONSET_GVK,
        selector: ds.spec?.selector ?? {},
        template: (ds.spec?.template ?? {}) as PodTemplate,
        oldTemplates: revisions.sorted
          .filter((r) => nameOf(r) !== nameOf(updateRevision))
          .map((r) => templateFromRevision(r)),
        settings: preDownloadSettings(ds.metadata?.annotations),
        ignore: daemonSetPreDownloadIgnore(ds, rollout),
      }),
      log,
    );
  }

  /** In-place progress of every pod (grace period end, next batch, InPlaceUpdateReady back to True). */
  async #refreshInPlace(s: DaemonSetSync, pods: readonly Pod[]): Promise<void> {
    const now = s.now();
    await forEachLimited(pods, POD_WRITE_CONCURRENCY, async (pod) => {
      // no lifecycle state rides on an ADS in-place update (upstream sets none), so nothing merges here
      const { delayMs } = await s.inPlace.refresh(pod, now);
      if (delayMs > 0) s.delays.push(delayMs);
      // a resize the node refused is reported, never sent again (a DaemonSet's status has no conditions)
      const infeasible = resizeInfeasible(pod);
      if (infeasible !== undefined)
        void s.d.recorder.warning(
          s.ds,
          EventReasons.ResizeInfeasible,
          resizeMessages.infeasible(pod.metadata?.name ?? '', infeasible),
        );
    });
  }
}

/** The DaemonSet's pods as the cache shows them now. */
function ownedPods(d: SyncDeps, ds: DaemonSetObject): Pod[] {
  const uid = ds.metadata?.uid ?? '';
  return (d.pods.byIndex('ownerUid', uid) as Pod[]).filter((p) => controllerRef(p)?.uid === uid);
}
