/**
 * The BroadcastJob reconciler (docs/broadcastjob.md; OpenKruise `pkg/controller/broadcastjob/broadcastjob_controller.go`
 * `Reconcile`). It reads the job, its pods and the nodes from the bus caches, waits while pods it created or deleted
 * are not in the cache yet (scale expectations), lets {@link planBroadcastJob} decide, then makes the writes: pod
 * deletions, pod creations in slow-start batches (1, 2, 4, …; a batch with a failure stops the round), the status,
 * and the job's deletion once its ttlSecondsAfterFinished has passed. Every pod name is fixed per job and node
 * (pods.ts `jobPodName`), so no node gets two pods even from a restarted controller whose cache lags.
 */
import type { Tracer } from '@opentelemetry/api';
import { BROADCAST_JOB_API_VERSION, BROADCAST_JOB_KIND, type BroadcastJob, type Pod } from '@regatta/api';
import {
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  OwnWrites,
  isAlreadyExists,
  isControlledBy,
  isNotFound,
  jsonEqual,
  refuseInvalidSpec,
  SpecGuard,
} from '@regatta/kube';
import { slowStartBatches } from '@regatta/rollout';
import {
  type Expectations,
  type Reconciler,
  type ReconcileContext,
  type Request,
  type Result,
  forEachLimited,
  requestKey,
} from '@regatta/runtime';
import { writeInitialKruisePodReady } from '@regatta/lifecycle';
import { deletePodExpected } from '@regatta/workload';
import type { Node } from './eligibility.js';
import { REASONS, countWrites, isJobFinished, planBroadcastJob, type JobEvent } from './plan.js';
import { newJobPod } from './pods.js';
import { specProblem } from './spec-guard.js';
import { JobTraces } from './trace.js';

export interface Reader<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  list(opts?: { namespace?: string; filter?: (obj: T) => boolean }): T[];
}

export interface BroadcastJobReconcilerDeps {
  jobs: Reader<KubeObject>;
  pods: Reader<KubeObject>;
  nodes: Reader<KubeObject>;
  client: KubeClient;
  expectations: Expectations;
  recorder: Pick<EventRecorder, 'normal' | 'warning'>;
  tracer?: Tracer;
  now?: () => Date;
}

const JOB = { apiVersion: BROADCAST_JOB_API_VERSION, kind: BROADCAST_JOB_KIND } as const;
/** Pod writes of one reconcile in flight together. */
export const POD_WRITE_CONCURRENCY = 10;
const MIN_REQUEUE_MS = 100;

export class BroadcastJobReconciler implements Reconciler {
  readonly #d: BroadcastJobReconcilerDeps;
  readonly #now: () => Date;
  readonly #written = new OwnWrites();
  readonly #traces: JobTraces | undefined;
  readonly #specGuard = new SpecGuard(specProblem);

  constructor(deps: BroadcastJobReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
    this.#traces = deps.tracer ? new JobTraces(deps.tracer) : undefined;
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const d = this.#d;
    const key = requestKey(req);
    const cached = d.jobs.get(req.namespace, req.name) as BroadcastJob | undefined;
    if (!cached) {
      d.expectations.deleteScale(key);
      this.#written.forget(req.namespace, req.name);
      this.#traces?.forget(key);
      this.#specGuard.forget(key);
      return {};
    }
    const job = this.#written.view(cached);
    if (!isJobFinished(job)) {
      const problem = this.#specGuard.problem(key, job);
      if (problem) return refuseInvalidSpec(job, 'BroadcastJob', problem, d.recorder, ctx.log);
    }
    // the gate, then the pods, in the same tick: the pods read include every pod the gate counted as seen
    const gate = d.expectations.satisfiedScale(key);
    if (!gate.satisfied) {
      ctx.log.debug({ pending: gate.pending }, 'waiting for the cache to show pod writes');
      return { requeueAfterMs: Math.max(MIN_REQUEUE_MS, gate.remainingMs) };
    }
    const now = this.#now();
    // the job's pods carry the KruisePodReady gate (pods.ts): their first condition is written here
    // (pkg/controller/podreadiness; docs/adr/0082-kruise-pod-ready-gate.md)
    const pods = await writeInitialKruisePodReady(
      { client: d.client },
      d.pods.list({ namespace: req.namespace ?? '', filter: (p) => isControlledBy(p, job) }) as Pod[],
      now,
    );
    const plan = planBroadcastJob({ job, pods, nodes: d.nodes.list() as Node[], now });
    for (const e of plan.events) this.#event(job, e);
    this.#traces?.pods(key, job, pods, now);

    if (plan.deleteJob) {
      ctx.log.info({ job: key }, 'deleting BroadcastJob for ttlSecondsAfterFinished');
      await d.client
        .delete({ ...JOB, namespace: req.namespace ?? '', name: req.name }, { preconditions: { uid: job.metadata?.uid ?? '' } })
        .catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
      return {};
    }
    if (!plan.writeStatus) return plan.requeueAfterMs !== undefined ? { requeueAfterMs: plan.requeueAfterMs } : {};

    const errors: unknown[] = [];
    let deleted = 0;
    await forEachLimited(plan.podsToDelete, POD_WRITE_CONCURRENCY, async (pod) => {
      try {
        if ((await deletePodExpected({ client: d.client, expectations: d.expectations, log: ctx.log }, key, pod)) === 'deleted') {
          deleted++;
          this.#event(job, { type: 'Normal', reason: REASONS.SuccessfulDelete, message: `Delete pod: ${pod.metadata?.name ?? ''}` });
        }
      } catch (err) {
        errors.push(err);
      }
    });
    const created = plan.nodesToCreate.length > 0 ? await this.#create(job, key, plan.nodesToCreate, errors, ctx) : 0;

    const status = countWrites(plan.status, created, deleted);
    if (!jsonEqual(status, job.status)) {
      const updated = await d.client.updateStatus<BroadcastJob>({ ...job, ...JOB, status });
      this.#written.record(updated);
      if (status.completionTime) this.#traces?.job(key, updated);
    }
    if (errors.length > 0) throw errors[0];
    return plan.requeueAfterMs !== undefined ? { requeueAfterMs: Math.max(MIN_REQUEUE_MS, plan.requeueAfterMs) } : {};
  }

  /** Creates the nodes' pods in slow-start batches; answers how many were created (or were there already). */
  async #create(job: BroadcastJob, key: string, nodes: readonly string[], errors: unknown[], ctx: ReconcileContext): Promise<number> {
    const d = this.#d;
    let created = 0;
    let index = 0;
    ctx.log.info({ job: key, nodes }, 'creating BroadcastJob pods');
    for (const size of slowStartBatches(nodes.length)) {
      const batch = nodes.slice(index, index + size);
      index += size;
      let failed = false;
      await forEachLimited(batch, POD_WRITE_CONCURRENCY, async (node) => {
        const pod = newJobPod(job, node);
        const name = pod.metadata?.name ?? '';
        d.expectations.expectScale(key, 'create', name);
        try {
          await d.client.create(pod);
          created++;
          this.#event(job, { type: 'Normal', reason: REASONS.SuccessfulCreate, message: `Created pod: ${name}` });
        } catch (err) {
          if (isAlreadyExists(err)) {
            // the node's pod is there (its name is fixed per job and node): the cache will show it
            ctx.log.info({ pod: name, node }, 'the pod of this node exists already');
            created++;
            return;
          }
          d.expectations.observeScale(key, 'create', name);
          this.#event(job, { type: 'Warning', reason: REASONS.FailedCreate, message: `Error creating: ${String(err)}` });
          errors.push(err);
          failed = true;
        }
      });
      if (failed) break;
    }
    return created;
  }

  #event(job: BroadcastJob, e: JobEvent): void {
    const r = this.#d.recorder;
    void (e.type === 'Normal' ? r.normal(job, e.reason, e.message, JOB) : r.warning(job, e.reason, e.message, JOB));
  }
}

