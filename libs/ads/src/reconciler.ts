/**
 * The Advanced DaemonSet reconciler (docs/ads.md "What it does"; OpenKruise
 * `pkg/controller/daemonset/daemonset_controller.go` `syncDaemonSet`). It reads the DaemonSet, its pods, revisions
 * and the nodes from caches and runs named steps, each in a file of `sync/`: claim, revisions, rollout trace,
 * manage (pods where they should be), in-place refresh, rolling update (only when manage wrote nothing and the
 * cache shows every earlier write), status, history.
 */
import { type ImagePreDownloadControl, preDownloadSettings } from '@regatta/image-predownload';
import { type KubeObject, controllerRef, isSelectorEmpty, refuseInvalidSpec, SpecGuard } from '@regatta/kube';
import { InPlaceUpdateControl } from '@regatta/inplace-update';
import { LifecycleControl, type Pod } from '@regatta/lifecycle';
import type { Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import { forEachLimited, waitForPendingWrites } from '@regatta/runtime';
import { type ControllerRevision, type PodTemplate, templateFromRevision } from '@regatta/revision';
import { type ObjectReader, type RolloutTracer, RolloutTraceControl, StatusCadence } from '@regatta/workload';
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
  readonly #now: () => Date;
  readonly #random: () => number;
  readonly #gates: DaemonSetFeatureGates;
  readonly #specGuard = new SpecGuard(specProblem);
  readonly #traces: RolloutTraceControl;
  readonly #spans = new NodeSpans();
  readonly #failedBackoff = new FailedPodBackoff();
  /** When each DaemonSet's status was last written (counter-only changes wait for the interval, ADR 0050). */
  readonly #statusCadence: StatusCadence;

  constructor(deps: DaemonSetReconcilerDeps) {
    this.#d = deps;
    this.#gates = { ...DAEMONSET_FEATURE_GATES, ...deps.gates };
    this.#now = deps.now ?? (() => new Date());
    this.#random = deps.random ?? Math.random;
    this.#statusCadence = deps.statusCadence ?? new StatusCadence();
    this.#traces = new RolloutTraceControl({
      client: deps.client,
      kind: DAEMONSET_GVK,
      tracer: deps.rollouts,
      now: this.#now,
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = daemonSetKey(req.namespace, req.name);
    const cached = this.#d.daemonsets.get(req.namespace, req.name) as DaemonSetObject | undefined;
    if (!cached) {
      this.#forget(key);
      this.#statusCadence.forget(StatusCadence.keyOf(req.namespace, req.name));
      return {};
    }
    if (cached.metadata?.deletionTimestamp) return {};
    const ds: DaemonSetObject = { ...cached, apiVersion: DAEMONSET_GVK.apiVersion, kind: DAEMONSET_GVK.kind };
    if (!ds.spec?.selector || isSelectorEmpty(ds.spec.selector)) {
      void this.#d.recorder.warning(ds, REASONS.SelectingAll, messages.selectingAll());
      return {};
    }
    const problem = this.#specGuard.problem(key, ds);
    if (problem) return refuseInvalidSpec(ds, 'DaemonSet', problem, this.#d.recorder, ctx.log);

    const d = this.#d;
    const written = { pods: 0 };
    const expectUpdated = (obj: KubeObject): void => {
      written.pods++;
      const rv = obj.metadata?.resourceVersion;
      if (rv) d.expectations.expectUpdated(key, nameOf(obj), rv);
    };
    // The expectations gate, then the pods, read in the same tick (no await between): the pods read are at least what
    // the gate counted as seen. Read before it (and awaited in between) they could lack a pod created last round whose
    // create reached the cache meanwhile: the gate would open on a node that looks empty and manage would create a
    // second pod there. Kubernetes' DaemonSet controller likewise lists pods only after SatisfiedExpectations.
    const waiting = this.#waiting(key, req, ctx);
    const pods = await claimStep(d, ds, ctx.log, expectUpdated);
    const revisions = await revisionsStep(d, ds);
    const rollout = daemonSetRollout(ds);
    const record = await beginRollout(this.#traces, ds, key, revisions.hash, rollout, ctx.log);
    const nodeObjects = d.nodes.list() as Node[];
    const templateSpec = (ds.spec.template?.spec ?? {}) as SchedulingSpec;
    const nodes: NodeFacts[] = nodeObjects.map((n) => ({
      name: nameOf(n),
      eligibility: nodeShouldRunDaemonPod(templateSpec, n),
    }));
    const writes = { client: d.client, onWritten: expectUpdated, now: this.#now };
    const s: DaemonSetSync = {
      d,
      ds,
      key,
      rollout,
      gates: this.#gates,
      now: this.#now,
      random: this.#random,
      log: ctx.log,
      lifecycle: new LifecycleControl(writes),
      inPlace: new InPlaceUpdateControl(writes),
      traces: this.#traces,
      failedBackoff: this.#failedBackoff,
      record,
      nodes,
      nodeObjects,
      hash: revisions.hash,
      templateGeneration: ds.metadata?.annotations?.[TEMPLATE_GENERATION_ANNOTATION],
      delays: [],
      expectUpdated,
    };

    if (waiting) {
      // writes of an earlier round the cache does not show yet: the status only, without observedGeneration
      await statusStep(s, pods, revisions.collisionCount, false, {
        control: this.#statusCadence,
        urgent: false,
      });
      // a deferred status write is made by the next reconcile: no later than the interval's end
      const after = [waiting.requeueAfterMs ?? 0, ...s.delays].filter((ms) => ms > 0);
      return after.length > 0 ? { requeueAfterMs: Math.min(...after) } : waiting;
    }
    const errors: unknown[] = [];
    try {
      await this.#preDownload(ds, rollout, revisions, ctx.log);
      const managed = await manageStep(s, pods, revisions.updateRevision);
      errors.push(...managed.errors);
      // the rollout decides on what the cache shows: after manage's writes only once it shows them (at once in
      // tests; on the next round with the bus)
      if (errors.length === 0 && (!managed.wrote || !this.#waiting(key, req, ctx))) {
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
    const seen = ownedPods(d, ds);
    const status = await statusStep(s, seen, revisions.collisionCount, true, {
      control: this.#statusCadence,
      urgent: errors.length > 0,
    });
    await this.#spans.follow(this.#traces, {
      ds,
      key,
      record,
      nodes,
      pods,
      status,
      rollout,
      now: this.#now(),
      log: ctx.log,
    });
    await historyStep(s, seen, revisions.sorted, revisions.updateRevision);
    // a failure is retried with the queue's back-off
    if (errors.length > 0) throw errors[0];
    const delay = s.delays.filter((ms) => ms > 0);
    return delay.length > 0 ? { requeueAfterMs: Math.min(...delay) } : {};
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
    });
  }

  /** Writes of an earlier round the cache does not show yet (looked at again after a short delay). */
  #waiting(key: string, req: Request, ctx: ReconcileContext): Result | undefined {
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
    this.#spans.forget(key);
    this.#failedBackoff.forget(key);
    this.#specGuard.forget(key);
  }
}

/** The DaemonSet's pods as the cache shows them now. */
function ownedPods(d: SyncDeps, ds: DaemonSetObject): Pod[] {
  const uid = ds.metadata?.uid ?? '';
  return (d.pods.byIndex('ownerUid', uid) as Pod[]).filter((p) => controllerRef(p)?.uid === uid);
}
