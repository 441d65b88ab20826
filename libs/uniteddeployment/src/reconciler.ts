/**
 * The UnitedDeployment reconciler (OpenKruise `pkg/controller/uniteddeployment/uniteddeployment_controller.go`
 * `Reconcile`; docs/uniteddeployment.md "Reconcile"): revisions, the subsets found, adaptive scheduling status,
 * the allocation of replicas and partitions, provisioning and updating the subset workloads, then the status. It
 * reads caches (the UnitedDeployments, the four subset kinds, their pods, revisions) and writes through the client.
 */
import type { Tracer } from '@opentelemetry/api';
import { type KubeObject, cloneJson, isNotFound, labelSelectorToString, refuseInvalidSpec, retryOnConflict, SpecGuard } from '@regatta/kube';
import type { Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import { waitForPendingWrites } from '@regatta/runtime';
import { RolloutTraceControl, RolloutTracer } from '@regatta/workload';
import {
  type ExistingSubset,
  type ReservedSubsetState,
  adaptiveTiming,
  allocateReplicas,
  conditionsAfterReservedAllocation,
  defaultAdaptiveSubsetState,
  isAdaptive,
  nextPartitions,
  reservedSubsetState,
  reservesUnschedulablePods,
} from './allocation/index.js';
import { REASONS, RESERVED_POD_LABEL, UNITED_DEPLOYMENT_GVK, UnitedDeploymentConditions } from './keys.js';
import { type SubsetTarget, planSubsets } from './planning/plan.js';
import { computeStatus, initSubsetStatuses, statusChanged, statusMergePatch, withUpdatedCondition } from './planning/status.js';
import { specProblem } from './spec-guard.js';
import { subsetKindOf } from './subset/kinds.js';
import type { StepContext, SyncDeps } from './sync/context.js';
import { manageSubsets } from './sync/manage.js';
import { changeProgress, linkSubsetRollouts, traceSubsetWrites } from './sync/trace.js';
import { revisionsStep } from './sync/revisions.js';
import { findSubsets } from './sync/subsets.js';
import type { SubsetStatus, UnitedDeployment } from './types.js';

export interface UnitedDeploymentReconcilerDeps extends SyncDeps {
  now?: () => Date;
  /** Traces of UnitedDeployment changes, one per `metadata.generation` (none in unit tests; sync/trace.ts). */
  tracer?: Tracer;
}

/** When an orphan could not be adopted (it changed meanwhile), the next attempt. */
const UNADOPTED_RECHECK_MS = 1000;

export function unitedDeploymentKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export class UnitedDeploymentReconciler implements Reconciler {
  readonly #d: UnitedDeploymentReconcilerDeps;
  readonly #now: () => Date;
  readonly #traces: RolloutTraceControl;
  /** Per UnitedDeployment: its change's trace, and the subset rollouts already linked to it. */
  readonly #linked = new Map<string, { change: string; subsets: Set<string> }>();
  readonly #specGuard = new SpecGuard(specProblem);

  constructor(deps: UnitedDeploymentReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
    this.#traces = new RolloutTraceControl({
      client: deps.client,
      kind: UNITED_DEPLOYMENT_GVK,
      tracer: deps.tracer ? new RolloutTracer(deps.tracer, { prefix: 'uniteddeployment' }) : undefined,
      now: this.#now,
    });
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const d = this.#d;
    const key = unitedDeploymentKey(req.namespace, req.name);
    const cached = d.uniteddeployments.get(req.namespace, req.name) as UnitedDeployment | undefined;
    if (!cached || cached.metadata?.deletionTimestamp) {
      this.#traces.forget(key);
      this.#linked.delete(key);
      this.#specGuard.forget(key);
      d.expectations.deleteScale(key);
      d.expectations.deleteUpdated(key);
      return {};
    }
    const problem = this.#specGuard.problem(key, cached);
    // nothing to retry until the UnitedDeployment changes; the event tells the user what to fix (spec-guard.ts)
    if (problem) return refuseInvalidSpec(cached, 'UnitedDeployment', problem, d.recorder, ctx.log);
    const waiting = waitForPendingWrites(d.expectations, key, (name) => this.#resourceVersion(req.namespace, name), ctx.log);
    if (waiting) return waiting;
    const ud: UnitedDeployment = { ...cloneJson(cached), ...UNITED_DEPLOYMENT_GVK };
    const kind = subsetKindOf(ud);
    if (!kind) {
      ctx.log.warn({}, 'the UnitedDeployment has no subset template; nothing to do');
      return {};
    }
    const s: StepContext = { d, key, log: ctx.log, now: this.#now() };
    const requeue: number[] = [];

    let subsetStatuses = initSubsetStatuses(ud);
    const revisions = await revisionsStep(s, ud, kind);
    let conditions = withUpdatedCondition(ud.status?.conditions ?? [], revisions.current, revisions.update, s.now);
    const record = await this.#traces.syncChange(
      ud,
      key,
      {
        from: ud.status?.currentRevision || revisions.current,
        to: revisions.update,
        strategy: ud.spec.updateStrategy?.type ?? 'Manual',
        replicas: ud.spec.replicas ?? 0,
        partition: JSON.stringify(ud.spec.updateStrategy?.manualUpdate?.partitions ?? {}),
      },
      ctx.log,
    );

    let found;
    try {
      found = await findSubsets(s, ud, kind, revisions.update);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void d.recorder.warning(ud, REASONS.FailedFindSubsets, message);
      void d.recorder.warning(ud, REASONS.FailedFindSubsetsSpaced, message);
      throw err;
    }

    const adaptive = isAdaptive(ud.spec);
    const reserve = reservesUnschedulablePods(ud.spec);
    const timing = adaptiveTiming(ud.spec);
    const existing: Record<string, ExistingSubset> = {};
    const reserved: Record<string, ReservedSubsetState> = {};
    for (const [name, view] of found.existing) {
      const facts: ExistingSubset = { replicas: view.specReplicas, readyReplicas: view.readyReplicas };
      const ss = subsetStatuses.find((x) => x.name === name);
      if (reserve) {
        const state = reservedSubsetState(
          { conditions: ss?.conditions, pods: view.pods },
          { updatedRevision: view.revision ?? revisions.update, updatedCondition: conditions.find((c) => c.type === UnitedDeploymentConditions.UnitedDeploymentUpdated), timing, now: s.now.getTime() },
        );
        await labelReservedPods(s, state.podsToLabel);
        reserved[name] = state;
        Object.assign(facts, { unschedulable: state.unschedulable, markedAsUnschedulable: state.markedAsUnschedulable, reservedPods: state.reservedPods });
        subsetStatuses = withSubsetConditions(subsetStatuses, name, state.conditions);
        if (state.requeueAfterMs !== undefined) requeue.push(state.requeueAfterMs);
      } else if (adaptive) {
        const state = defaultAdaptiveSubsetState(
          { conditions: ss?.conditions, replicas: view.statusReplicas, readyReplicas: view.readyReplicas, pods: view.pods },
          timing,
          s.now.getTime(),
        );
        facts.unschedulable = state.unschedulable;
        subsetStatuses = withSubsetConditions(subsetStatuses, name, state.conditions);
        if (state.requeueAfterMs !== undefined) requeue.push(state.requeueAfterMs);
      }
      existing[name] = facts;
    }

    let nextReplicas: Record<string, number>;
    try {
      nextReplicas = allocateReplicas(ud.spec, existing);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void d.recorder.warning(ud, REASONS.FailedSpecifySubsetReplicas, `Specified subset replicas is ineffective: ${message}`);
      throw err;
    }
    for (const [name, state] of Object.entries(reserved)) {
      const conditionsAfter = conditionsAfterReservedAllocation(state, existing[name]?.replicas ?? 0, nextReplicas[name] ?? 0, s.now.getTime());
      subsetStatuses = withSubsetConditions(subsetStatuses, name, conditionsAfter);
    }
    const partitions = nextPartitions(ud.spec, nextReplicas);
    const target = (name: string): SubsetTarget => {
      const patch = (ud.spec.topology?.subsets ?? []).find((x) => x.name === name)?.patch;
      const state = reserved[name];
      const view = found.existing.get(name);
      const maxUnavailable =
        state?.unschedulable && view ? view.specReplicas - view.readyReplicas + state.updateTimeoutPods : undefined;
      return {
        revision: revisions.update,
        replicas: nextReplicas[name] ?? 0,
        partition: partitions[name] ?? 0,
        patch: patch ? JSON.stringify(patch) : '',
        ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
      };
    };
    const planned = planSubsets(ud, found.existing, target);
    // a subset whose orphaned workload could not be adopted yet is not created twice
    const plan = { ...planned, create: planned.create.filter((n) => !found.unadopted.includes(n)) };
    if (plan.create.length < planned.create.length) requeue.push(UNADOPTED_RECHECK_MS);
    try {
      const managed = await manageSubsets(s, { ud, kind, found, plan, target, conditions });
      conditions = managed.conditions;
      traceSubsetWrites(this.#traces, record, ud, managed.writes, s.now, this.#now());
      if (adaptive && (plan.create.length > 0 || plan.update.some((u) => u.reason === 'replicas'))) {
        requeue.push(timing.rescheduleCriticalMs);
      }
    } catch (err) {
      void d.recorder.warning(ud, REASONS.FailedUpdateSubset, err instanceof Error ? err.message : String(err));
      throw err;
    }

    const labelSelector =
      labelSelectorToString(ud.spec.selector) + (reserve ? `,${RESERVED_POD_LABEL}=false` : '');
    const status = computeStatus({
      ud,
      existing: found.existing,
      subsetStatuses,
      conditions,
      nextReplicas,
      nextPartitions: partitions,
      currentRevision: revisions.current,
      updateRevision: revisions.update,
      collisionCount: revisions.collisionCount,
      labelSelector,
      reservedPods: Object.fromEntries(Object.entries(reserved).map(([n, st]) => [n, st.reservedPods])),
    });
    await this.#writeStatus(s, ud, status);
    if (record) linkSubsetRollouts(this.#traces, record, ud, found.existing, this.#linkedFor(key, record.traceparent), this.#now());
    await this.#traces.follow(ud, key, record, changeProgress(ud, status), ctx.log);
    const after = requeue.filter((ms) => ms > 0);
    return after.length > 0 ? { requeueAfterMs: Math.min(...after) } : {};
  }

  async #writeStatus(s: StepContext, ud: UnitedDeployment, status: UnitedDeployment['status'] & object): Promise<void> {
    if (!statusChanged(ud.status, status)) return;
    const ref = { ...UNITED_DEPLOYMENT_GVK, namespace: ud.metadata?.namespace, name: ud.metadata?.name ?? '' };
    try {
      const out = await retryOnConflict(() =>
        s.d.client.patchStatus<KubeObject>(ref, { status: statusMergePatch(ud.status, status) }, { type: 'merge' }),
      );
      const rv = out.metadata?.resourceVersion;
      if (rv) s.d.expectations.expectUpdated(s.key, ref.name, rv);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  #linkedFor(key: string, change: string): Set<string> {
    let entry = this.#linked.get(key);
    if (entry?.change !== change) {
      entry = { change, subsets: new Set() };
      this.#linked.set(key, entry);
    }
    return entry.subsets;
  }

  /** The resourceVersion the caches hold for the UnitedDeployment or one of its subset workloads, by name. */
  #resourceVersion(namespace: string | undefined, name: string): string | undefined {
    const d = this.#d;
    for (const reader of [d.uniteddeployments, d.statefulsets, d.advancedstatefulsets, d.clonesets, d.deployments]) {
      const rv = reader.get(namespace, name)?.metadata?.resourceVersion;
      if (rv) return rv;
    }
    return undefined;
  }
}

function withSubsetConditions(statuses: SubsetStatus[], name: string, conditions: SubsetStatus['conditions']): SubsetStatus[] {
  return statuses.map((ss) => (ss.name === name ? { ...ss, conditions: conditions ?? [] } : ss));
}

/** Reservation mode: the reserved label of every pod whose reserved state changed or which has none yet. */
async function labelReservedPods(s: StepContext, pods: ReservedSubsetState['podsToLabel']): Promise<void> {
  for (const { pod, reserved } of pods) {
    try {
      await s.d.client.patch(
        { apiVersion: 'v1', kind: 'Pod', namespace: pod.metadata?.namespace, name: pod.metadata?.name ?? '' },
        { metadata: { labels: { [RESERVED_POD_LABEL]: reserved ? 'true' : 'false' } } },
        { type: 'merge' },
      );
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
