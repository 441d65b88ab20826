/**
 * The UnitedDeployment reconciler (OpenKruise `pkg/controller/uniteddeployment/uniteddeployment_controller.go`
 * `Reconcile`; docs/uniteddeployment.md "Reconcile"): revisions, the subsets found, adaptive scheduling status,
 * the allocation of replicas and partitions, provisioning and updating the subset workloads, then the status. It
 * reads caches (the UnitedDeployments, the four subset kinds, their pods, revisions) and writes through the client.
 */
import { type KubeObject, cloneJson, isNotFound, labelSelectorToString, retryOnConflict } from '@regatta/kube';
import type { Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import { pendingWrites } from '@regatta/runtime';
import {
  DEFAULT_RESCHEDULE_CRITICAL_SECONDS,
  DEFAULT_UNSCHEDULABLE_DURATION,
  REASONS,
  RESERVED_POD_LABEL,
  SUBSET_SCHEDULABLE,
  UNITED_DEPLOYMENT_GVK,
} from './keys.js';
import { defaultAdaptiveStatus } from './planning/adaptive.js';
import { type SubsetTarget, nextPartitions, planSubsets } from './planning/plan.js';
import { computeStatus, initSubsetStatuses, statusChanged, statusMergePatch, withUpdatedCondition } from './planning/status.js';
import { subsetKindOf } from './subset/kinds.js';
import { type SubsetFacts, allocateReplicas } from './sync/allocate.js';
import type { StepContext, SyncDeps } from './sync/context.js';
import { manageSubsets } from './sync/manage.js';
import { revisionsStep } from './sync/revisions.js';
import { findSubsets } from './sync/subsets.js';
import type { SubsetStatus, UnitedDeployment } from './types.js';

export interface UnitedDeploymentReconcilerDeps extends SyncDeps {
  now?: () => Date;
}

export function unitedDeploymentKey(namespace: string | undefined, name: string): string {
  return `${namespace ?? ''}/${name}`;
}

export class UnitedDeploymentReconciler implements Reconciler {
  readonly #d: UnitedDeploymentReconcilerDeps;
  readonly #now: () => Date;

  constructor(deps: UnitedDeploymentReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const d = this.#d;
    const key = unitedDeploymentKey(req.namespace, req.name);
    const cached = d.uniteddeployments.get(req.namespace, req.name) as UnitedDeployment | undefined;
    if (!cached || cached.metadata?.deletionTimestamp) {
      d.expectations.deleteScale(key);
      d.expectations.deleteUpdated(key);
      return {};
    }
    const waiting = pendingWrites(d.expectations, key, (name) => this.#resourceVersion(req.namespace, name));
    if (waiting) {
      ctx.log.debug({ pending: waiting.pending, kind: waiting.kind }, 'waiting for the cache to show earlier writes');
      return { requeueAfterMs: waiting.requeueAfterMs };
    }
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

    let found;
    try {
      found = await findSubsets(s, ud, kind, revisions.update);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void d.recorder.warning(ud, REASONS.FailedFindSubsets, message);
      void d.recorder.warning(ud, REASONS.FailedFindSubsetsSpaced, message);
      throw err;
    }

    const strategy = ud.spec.topology?.scheduleStrategy;
    const adaptive = strategy?.type === 'Adaptive';
    const facts = new Map<string, SubsetFacts>();
    for (const [name, view] of found.existing) {
      let unschedulable = false;
      if (adaptive) {
        const ss = subsetStatuses.find((x) => x.name === name);
        const a = defaultAdaptiveStatus(
          {
            condition: ss?.conditions?.find((c) => c.type === SUBSET_SCHEDULABLE),
            pods: view.pods,
            replicas: view.statusReplicas,
            readyReplicas: view.readyReplicas,
          },
          {
            rescheduleCriticalMs: 1000 * (strategy?.adaptive?.rescheduleCriticalSeconds ?? DEFAULT_RESCHEDULE_CRITICAL_SECONDS),
            unschedulableMs: 1000 * (strategy?.adaptive?.unschedulableDuration ?? DEFAULT_UNSCHEDULABLE_DURATION),
            now: s.now,
          },
        );
        unschedulable = a.unschedulable;
        requeue.push(...a.requeueMs);
        if (a.condition && ss) subsetStatuses = withSubsetCondition(subsetStatuses, name, a.condition);
      }
      facts.set(name, { current: view.specReplicas, readyReplicas: view.readyReplicas, unschedulable });
    }

    let nextReplicas: Record<string, number>;
    try {
      nextReplicas = allocateReplicas(ud, facts);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      void d.recorder.warning(ud, REASONS.FailedSpecifySubsetReplicas, `Specified subset replicas is ineffective: ${message}`);
      throw err;
    }
    const partitions = nextPartitions(ud, nextReplicas);
    const target = (name: string): SubsetTarget => {
      const patch = (ud.spec.topology?.subsets ?? []).find((x) => x.name === name)?.patch;
      return {
        revision: revisions.update,
        replicas: nextReplicas[name] ?? 0,
        partition: partitions[name] ?? 0,
        patch: patch ? JSON.stringify(patch) : '',
      };
    };
    const plan = planSubsets(ud, found.existing, target);
    try {
      const managed = await manageSubsets(s, { ud, kind, found, plan, target, conditions });
      conditions = managed.conditions;
      if (adaptive && (plan.create.length > 0 || plan.update.some((u) => u.reason === 'replicas'))) {
        requeue.push(1000 * (strategy?.adaptive?.rescheduleCriticalSeconds ?? DEFAULT_RESCHEDULE_CRITICAL_SECONDS));
      }
    } catch (err) {
      void d.recorder.warning(ud, REASONS.FailedUpdateSubset, err instanceof Error ? err.message : String(err));
      throw err;
    }

    const reserve = adaptive && strategy?.adaptive?.reserveUnschedulablePods === true;
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
    });
    await this.#writeStatus(s, ud, status);
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

function withSubsetCondition(statuses: SubsetStatus[], name: string, condition: NonNullable<SubsetStatus['conditions']>[number]): SubsetStatus[] {
  return statuses.map((ss) =>
    ss.name === name
      ? { ...ss, conditions: [...(ss.conditions ?? []).filter((c) => c.type !== condition.type), condition] }
      : ss,
  );
}
