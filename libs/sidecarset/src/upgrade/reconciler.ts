/**
 * The SidecarSet upgrade reconciler (OpenKruise `pkg/controller/sidecarset/sidecarset_processor.go`
 * `UpdateSidecarSet`), as named steps in `sync/`: matching pods, latest revision, status, expectations, NotUpdate /
 * paused, hot-upgrade reset, done check, next pods upgraded in place. Cold upgrades change the sidecar image of the
 * same container; the pod is never recreated.
 */
import type { SidecarSet } from '@regatta/api';
import { refuseInvalidSpec, SpecGuard, type KubeObject } from '@regatta/kube';
import { labelSelectorMatches } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import type { ReconcileContext, Reconciler, Request, Result } from '@regatta/runtime';
import { RolloutTraceControl, RolloutTracer, StatusCadence } from '@regatta/workload';
import { specProblem } from '../spec-guard.js';
import { SIDECARSET_GVK } from './revisions.js';
import { expectedUpdatedPods, matchingPods } from './status.js';
import { injectedSidecarSets } from './pod-state.js';
import type { SidecarSetView } from './types.js';
import { type SidecarSetUpgradeDeps, type UpgradeSync, podKey } from './sync/context.js';
import { hotResetStep } from './sync/hot-reset.js';
import { registerLatestRevision } from './sync/revisions.js';
import { statusStep } from './sync/status.js';
import { SidecarSetTraces } from './sync/traces.js';
import { BUDGET_RETRY_MS } from '@regatta/api';
import { upgradePodsStep } from './sync/upgrade-pods.js';
import { SidecarResizeRefusals, reportInfeasibleResizes } from './sync/resize.js';

export interface SidecarSetUpgradeReconcilerDeps extends SidecarSetUpgradeDeps {
  /** Rollout traces (prefix `sidecarset`). */
  rollouts?: RolloutTracer;
  /** Or the program's tracer: rollout traces are made with it (prefix `sidecarset`). */
  tracer?: ConstructorParameters<typeof RolloutTracer>[0];
}

/** Requeue while the cache does not show our pod writes yet (upstream: 1 s). */
const EXPECTATION_REQUEUE_MS = 1000;
/** Requeue while the pod webhook configuration does not hold the SidecarSet's entry yet. */
const WEBHOOK_ENTRY_REQUEUE_MS = 200;

/** What one reconcile learnt that its result depends on. */
interface Round {
  /** The new generation is not reported observed yet (docs/adr/0037). */
  generationHeld: boolean;
  /** > 0: a counter-only status change waits for the write cadence this long. */
  statusDeferredMs: number;
  /** Writes that deferred status at once. */
  writeDeferredStatus?: () => Promise<unknown>;
}

export class SidecarSetUpgradeReconciler implements Reconciler {
  readonly #d: SidecarSetUpgradeReconcilerDeps;
  readonly #statusCadence = new StatusCadence();
  readonly #specGuard = new SpecGuard(specProblem);
  readonly #now: () => Date;
  readonly #traces: SidecarSetTraces;
  readonly #resizeRefusals = new SidecarResizeRefusals();

  constructor(deps: SidecarSetUpgradeReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
    const tracer =
      deps.rollouts ?? (deps.tracer ? new RolloutTracer(deps.tracer, { prefix: 'sidecarset' }) : undefined);
    this.#traces = new SidecarSetTraces(
      new RolloutTraceControl({ client: deps.client, kind: SIDECARSET_GVK, tracer, now: this.#now }),
    );
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const round: Round = { generationHeld: false, statusDeferredMs: 0 };
    let result: Result;
    try {
      result = await this.#sync(req, ctx, round);
    } catch (err) {
      // the error's back-off, not the cadence's requeue, brings the next reconcile: write a deferred status now
      if (round.writeDeferredStatus)
        await round.writeDeferredStatus().catch((writeErr: unknown) => {
          ctx.log.warn({ err: writeErr }, 'could not write the deferred status after a failed step');
        });
      throw err;
    }
    const after = [
      result.requeueAfterMs,
      round.statusDeferredMs,
      // the new generation is not reported observed yet: come back soon (the keeper applies the entry at once)
      round.generationHeld ? WEBHOOK_ENTRY_REQUEUE_MS : 0,
    ].filter((ms): ms is number => ms !== undefined && ms > 0);
    return after.length > 0 ? { ...result, requeueAfterMs: Math.min(...after) } : result;
  }

  async #sync(req: Request, ctx: ReconcileContext, round: Round): Promise<Result> {
    const key = req.name;
    const cached = this.#d.sidecarsets.get(undefined, req.name) as SidecarSetView | undefined;
    if (!cached || cached.metadata?.deletionTimestamp) {
      this.#d.expectations.deleteUpdated(key);
      this.#traces.forget(key);
      this.#statusCadence.forget(StatusCadence.keyOf(undefined, key));
      this.#specGuard.forget(key);
      this.#resizeRefusals.forget(key);
      return {};
    }
    const set: SidecarSetView = { ...cached, ...SIDECARSET_GVK };
    // cast through unknown: the upgrade's view types only the fields it reads; the guard checks the whole stored object
    const problem = this.#specGuard.problem(key, set as unknown as SidecarSet);
    // nothing to retry until the SidecarSet changes; the event tells the user what to fix (../spec-guard.ts)
    if (problem) return refuseInvalidSpec(set, 'SidecarSet', problem, this.#d.recorder, ctx.log);
    const d = this.#d;
    const s: UpgradeSync = {
      d,
      set,
      key,
      now: this.#now,
      log: ctx.log,
      expectUpdated: (obj: KubeObject) => {
        const rv = obj.metadata?.resourceVersion;
        if (rv) d.expectations.expectUpdated(key, podKey(obj as Pod), rv);
      },
      resizeRefusals: this.#resizeRefusals,
    };

    // 1. matching pods, latest revision
    const covered = new Map<string, boolean>(); // each namespace's answer once per reconcile, not once per pod
    const namespaceCovered = (ns: string): boolean => {
      const known = covered.get(ns);
      if (known !== undefined) return known;
      const answer = this.#namespaceCovered(set, ns);
      covered.set(ns, answer);
      return answer;
    };
    const pods = matchingPods(set, d.pods.list() as Pod[], namespaceCovered);
    const { latest, collisionCount } = await registerLatestRevision(s, pods);
    const latestName = latest.metadata?.name ?? '';
    const record = await this.#traces.begin(s, latestName, pods.length);
    // 2. status
    const expectedUpdated = expectedUpdatedPods(set, pods.length);
    const statusInput = {
      pods,
      latestRevision: latestName,
      collisionCount,
      expectedUpdated,
      cadence: this.#statusCadence,
    };
    const { status, held, requeueAfterMs } = await statusStep(s, statusInput);
    round.generationHeld = held;
    round.statusDeferredMs = requeueAfterMs;
    // against the stored status (s.set carries the computed one from here on)
    if (requeueAfterMs > 0)
      round.writeDeferredStatus = () => statusStep({ ...s, set }, { ...statusInput, urgent: true });
    s.set = { ...set, status };
    await this.#traces.follow(s, record, pods, status, expectedUpdated);
    // sidecar resizes the kubelet holds as Infeasible: told once (./sync/resize.ts)
    await reportInfeasibleResizes(s, this.#resizeRefusals, pods);
    // 3. writes of earlier rounds the cache does not show yet
    d.expectations.observeUpdatedFrom(key, (name) => {
      const [ns, n] = name.split('/');
      return d.pods.get(ns, n ?? '')?.metadata?.resourceVersion ?? undefined;
    });
    const sat = d.expectations.isUpdatedSatisfied(key);
    if (!sat.satisfied) {
      ctx.log.debug({ pending: sat.pending }, 'waiting for the cache to show our pod updates');
      return { requeueAfterMs: EXPECTATION_REQUEUE_MS };
    }
    // 4. NotUpdate / paused
    const strategy = set.spec?.updateStrategy;
    if (strategy?.type === 'NotUpdate' || strategy?.paused) return {};
    // 5. hot-upgrade reset of the idle twins
    if (await hotResetStep(s, pods)) return {};
    // 6. all updated
    if (status.updatedPods >= status.matchedPods) return {};
    // 7. the next pods
    // each pod's span starts as its update lands, also when another pod's write fails
    let budgetWait = false;
    await upgradePodsStep(
      s,
      pods,
      (pod) => this.#injectedList(pod),
      (pod) => this.#traces.started(key, record?.to, pod),
      () => (budgetWait = true),
    );
    // pods a PodUnavailableBudget refused now: try again shortly (docs/podunavailablebudget.md)
    return budgetWait ? { requeueAfterMs: BUDGET_RETRY_MS } : {};
  }

  /** Namespaces the SidecarSet covers: v1alpha1 `namespace`, else `namespaceSelector` (nil: all). */
  #namespaceCovered(set: SidecarSetView, ns: string): boolean {
    if (set.spec?.namespace) return set.spec.namespace === ns;
    const selector = set.spec?.namespaceSelector;
    if (!selector) return true;
    const namespace = this.#d.namespaces?.get(undefined, ns);
    if (!namespace) return false;
    try {
      return labelSelectorMatches(selector, namespace.metadata?.labels ?? {});
    } catch {
      return false;
    }
  }

  /** `listMatchedSidecarSets`: for pods injected before the list annotation existed. */
  #injectedList(pod: Pod): string {
    const known = injectedSidecarSets(pod);
    if (known.length > 0) return known.join(',');
    const names: string[] = [];
    for (const o of this.#d.sidecarsets.list()) {
      const other = o as SidecarSetView;
      const selector = other.spec?.selector;
      if (!selector || !this.#namespaceCovered(other, pod.metadata?.namespace ?? '')) continue;
      try {
        if (labelSelectorMatches(selector, pod.metadata?.labels ?? {}))
          names.push(other.metadata?.name ?? '');
      } catch {
        // an unusable selector selects nothing
      }
    }
    return names.join(',');
  }
}
