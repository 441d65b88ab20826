/**
 * The WorkloadSpread reconciler (`pkg/controller/workloadspread/workloadspread_controller.go` syncWorkloadSpread):
 * reads the spread (the newer of the cache and this process's last write: the webhook writes its status too), its
 * target's pods and replicas, ties pods created before the spread to their subset, writes the deletion costs,
 * writes the status when it changed (a conflict with the webhook's write is retried by the queue), deletes the pods an
 * Adaptive strategy reschedules, and requeues when a recorded creation or deletion times out.
 */
import {
  WORKLOAD_SPREAD_API_VERSION,
  WORKLOAD_SPREAD_KIND,
  WorkloadSpreadAnnotations,
  type WorkloadSpread,
} from '@regatta/api';
import { ConflictError, type EventRecorder, type KubeClient, type KubeObject, type OwnWrites, type SchedulingNode } from '@regatta/kube';
import { deepEqual, type ReconcileContext, type Reconciler, type Request, type Result } from '@regatta/runtime';
import { deletionCosts } from './deletion-cost.js';
import { planRound } from './status.js';
import { latestVersion, targetPods, targetReplicas, workloadOf, type TargetReaders } from './target.js';

export interface WorkloadSpreadReconcilerDeps {
  readers: TargetReaders & {
    workloadspreads: { get(namespace: string | undefined, name: string): WorkloadSpread | undefined };
    nodes: { get(namespace: string | undefined, name: string): KubeObject | undefined };
  };
  client: Pick<KubeClient, 'patch' | 'updateStatus' | 'delete'>;
  recorder: Pick<EventRecorder, 'normal' | 'warning'>;
  ownWrites: OwnWrites;
  now?: () => Date;
}

const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
/** How soon a round whose status write lost to the pod webhook's runs again. */
export const CONFLICT_REQUEUE_MS = 200;
const GVK = { apiVersion: WORKLOAD_SPREAD_API_VERSION, kind: WORKLOAD_SPREAD_KIND };

/** The status as the API server stores it: Go's omitempty drops zero values. */
const normalized = (s: unknown) => JSON.parse(JSON.stringify(s ?? {})) as unknown;

export class WorkloadSpreadReconciler implements Reconciler {
  constructor(private readonly d: WorkloadSpreadReconcilerDeps) {}

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const { readers, client, ownWrites } = this.d;
    const cached = readers.workloadspreads.get(req.namespace, req.name);
    if (!cached) {
      ownWrites.forget(req.namespace, req.name);
      return {};
    }
    const ws = ownWrites.view(cached);
    if (!ws.spec?.targetRef || ws.metadata?.deletionTimestamp) return {};
    const workload = workloadOf(readers, ws);
    const replicas = targetReplicas(ws, workload);
    const plan = planRound({
      ws,
      pods: targetPods(readers, ws, workload),
      replicas,
      node: (name) => readers.nodes.get(undefined, name) as SchedulingNode | undefined,
      now: this.d.now?.() ?? new Date(),
    });
    for (const { pod, patch } of plan.adopt) {
      await client.patch({ ...POD, namespace: req.namespace, name: pod.metadata?.name ?? '' }, patch, { type: 'strategic' });
    }
    for (const { pod, cost } of deletionCosts(ws, plan.versioned, replicas, latestVersion(readers, ws, workload))) {
      const patch = { metadata: { annotations: { [WorkloadSpreadAnnotations.PodDeletionCost]: cost } } };
      try {
        await client.patch({ ...POD, namespace: req.namespace, name: pod.metadata?.name ?? '' }, patch, { type: 'strategic' });
      } catch (err) {
        void this.d.recorder.warning(ws, 'PatchPodDeletionCostFailed', `WorkloadSpread ${req.namespace}/${req.name} failed to patch deletion-cost annotation to ${cost} for Pod ${req.namespace}/${pod.metadata?.name}`, GVK);
        throw err;
      }
    }
    for (const e of plan.events) void (e.type === 'Normal' ? this.d.recorder.normal(ws, e.reason, e.message, GVK) : this.d.recorder.warning(ws, e.reason, e.message, GVK));
    if (!deepEqual(normalized(plan.status), normalized(ws.status))) {
      try {
        const written = await client.updateStatus({ ...ws, apiVersion: WORKLOAD_SPREAD_API_VERSION, kind: WORKLOAD_SPREAD_KIND, status: plan.status } as KubeObject);
        ownWrites.record(written);
        ctx.log.debug({ subsets: plan.status.subsetStatuses?.map((s) => `${s.name}:${s.replicas}/${s.missingReplicas}`) }, 'status written');
      } catch (err) {
        // the pod webhook recorded a placement meanwhile (it writes the same status): a new round on the newer one
        if (!(err instanceof ConflictError)) throw err;
        ctx.log.debug({ err }, 'status written meanwhile by the pod webhook; again on the newer one');
        return { requeueAfterMs: CONFLICT_REQUEUE_MS };
      }
    }
    for (const pod of plan.reschedule) {
      try {
        await client.delete({ ...POD, namespace: req.namespace, name: pod.metadata?.name ?? '' });
      } catch (err) {
        void this.d.recorder.warning(ws, 'DeletePodFailed', `Failed to delete unschedulabe Pod ${req.namespace}/${pod.metadata?.name} in Subset ${plan.subsetOf.get(pod.metadata?.name ?? '') ?? ''} of WorkloadSpread ${req.namespace}/${req.name}`, GVK);
        throw err;
      }
    }
    return plan.requeueAfterMs !== undefined ? { requeueAfterMs: plan.requeueAfterMs } : {};
  }
}
