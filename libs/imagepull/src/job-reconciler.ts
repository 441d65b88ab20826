/**
 * The ImagePullJob reconciler (docs/imagepull.md; OpenKruise `pkg/controller/imagepulljob/imagepulljob_controller.go`
 * Reconcile): finalize deleting or completed jobs (release synced secrets, drop the finalizer, delete after
 * `ttlSecondsAfterFinished`), add the finalizer, select the target NodeImages (bus caches), sync pull secrets,
 * compute the status, write the job's tag into at most `parallelism − active` more NodeImages, write the status.
 * Dropping the finalizer of a finished job also emits the root span of its trace (job-trace.ts).
 */
import {
  IMAGE_PULL_JOB_API_VERSION,
  IMAGE_PULL_JOB_KIND,
  ImagePullJobKeys,
  NODE_IMAGE_API_VERSION,
  NODE_IMAGE_KIND,
  type ImagePullJob,
  type NodeImage,
} from '@regatta/api';
import { isNotFound, jsonEqual, retryOnConflict, type EventRecorder, type KubeClient, type KubeObject } from '@regatta/kube';
import type { Expectations, Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import type { Tracer } from '@opentelemetry/api';
import { emitJobSpan } from './job-trace.js';
import { syncJobPullSecrets } from './secret-sync.js';
import { refuseInvalidSpec, SpecGuard } from './spec-guard.js';
import { calculateStatus } from './status.js';
import { syncBudget, syncJobIntoNodeImage, type TagPolicyOptions } from './sync.js';
import { targetNodeImages, type PodLike } from './targets.js';

export interface Reader<T> {
  get(namespace: string | undefined, name: string): T | undefined;
  list(opts?: { namespace?: string; filter?: (obj: T) => boolean }): T[];
}

export interface ImagePullJobReconcilerDeps {
  imagepulljobs: Reader<KubeObject>;
  nodeimages: Reader<KubeObject>;
  pods: Reader<KubeObject>;
  client: KubeClient;
  expectations: Expectations;
  /** The namespace synced pull secrets live in (`kruise-daemon-config`). */
  daemonConfigNamespace: string;
  tagPolicy?: TagPolicyOptions;
  now?: () => Date;
  /** The tracer of the jobs' root spans (job-trace.ts). */
  tracer?: Tracer;
  /** The InvalidSpec Warning of a job that fails validation (spec-guard.ts). */
  recorder?: Pick<EventRecorder, 'warning'>;
}

const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: IMAGE_PULL_JOB_KIND } as const;
const NODE_IMAGE = { apiVersion: NODE_IMAGE_API_VERSION, kind: NODE_IMAGE_KIND } as const;
/** Requeue while the cache has not shown a NodeImage this controller wrote (upstream: 5 s). */
const STALE_NODE_IMAGE_REQUEUE_MS = 5_000;
const MIN_REQUEUE_MS = 1_000;
/** NodeImage writes of one reconcile in flight together. */
const NODE_IMAGE_WRITES = 10;
/** Re-reads the source secrets of a running job that has some (their updates are not on the bus). */
export const SECRET_RESYNC_MS = 5_000;

export class ImagePullJobReconciler implements Reconciler {
  readonly #d: ImagePullJobReconcilerDeps;
  readonly #now: () => Date;
  readonly #specGuard = new SpecGuard();

  constructor(deps: ImagePullJobReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = `${req.namespace ?? ''}/${req.name}`;
    const job = this.#d.imagepulljobs.get(req.namespace, req.name) as ImagePullJob | undefined;
    if (!job) {
      this.#d.expectations.deleteUpdated(key);
      this.#specGuard.forget(key);
      return {};
    }
    // the cache must show what this controller wrote last (the job's status, the NodeImages it synced)
    this.#d.expectations.observeUpdatedFrom(key, (n) =>
      n === '' ? job.metadata?.resourceVersion : this.#d.nodeimages.get(undefined, n)?.metadata?.resourceVersion,
    );
    const pending = this.#d.expectations.isUpdatedSatisfied(key);
    if (!pending.satisfied) return { requeueAfterMs: Math.min(STALE_NODE_IMAGE_REQUEUE_MS, pending.remainingMs) };

    const secretDeps = { client: this.#d.client, namespace: this.#d.daemonConfigNamespace, log: ctx.log };
    if (job.metadata?.deletionTimestamp) {
      await this.#finalize(job, secretDeps);
      return {};
    }
    if (job.status?.completionTime) {
      await this.#finalize(job, secretDeps);
      const ttl = job.spec.completionPolicy?.ttlSecondsAfterFinished;
      if (ttl == null) return {};
      const left = ttl * 1000 - (this.#now().getTime() - Date.parse(job.status.completionTime));
      if (left > 0) return { requeueAfterMs: left };
      ctx.log.info({ job: key }, 'deleting ImagePullJob for ttlSecondsAfterFinished');
      await this.#d.client.delete({ ...JOB, namespace: req.namespace ?? '', name: req.name }).catch(ignoreNotFound);
      return {};
    }
    const problem = this.#specGuard.problem(key, job);
    if (problem) return refuseInvalidSpec(job, problem, this.#d.recorder, ctx.log);
    if (!(job.metadata?.finalizers ?? []).includes(ImagePullJobKeys.DeletionProtectionFinalizer)) {
      await this.#setFinalizers(job, [...(job.metadata?.finalizers ?? []), ImagePullJobKeys.DeletionProtectionFinalizer]);
      return {};
    }

    const pods = job.spec.podSelector
      ? (this.#d.pods.list({ namespace: req.namespace ?? '' }) as PodLike[])
      : [];
    const targets = targetNodeImages(job, this.#d.nodeimages.list() as NodeImage[], pods);
    const secrets = await syncJobPullSecrets(job, secretDeps);
    const now = this.#now();
    const { status, notSynced } = calculateStatus(job, targets, secrets, now);

    // the NodeImages of this round are written side by side, NODE_IMAGE_WRITES at a time: a job's first round
    // (parallelism nodes) starts its pulls together instead of one GET and PUT after another (docs/benchmarks.md §9)
    const names = notSynced.slice(0, syncBudget(job, status.active ?? 0, notSynced.length));
    for (let i = 0; i < names.length; i += NODE_IMAGE_WRITES) {
      const writes = await Promise.allSettled(
        names.slice(i, i + NODE_IMAGE_WRITES).map(async (name) => {
          const written = await retryOnConflict(async () => {
            const fresh = await this.#d.client.getOrUndefined<NodeImage>({ ...NODE_IMAGE, name });
            if (!fresh) return undefined;
            const next = syncJobIntoNodeImage(fresh, job, secrets, now, this.#d.tagPolicy);
            return next ? this.#d.client.replace(next) : undefined;
          });
          const rv = written?.metadata?.resourceVersion;
          if (rv) this.#d.expectations.expectUpdated(key, name, rv);
          if (written) ctx.log.debug({ job: key, nodeImage: name }, 'image tag written into NodeImage');
        }),
      );
      const failed = writes.find((w): w is PromiseRejectedResult => w.status === 'rejected');
      if (failed) throw failed.reason;
    }

    if (!jsonEqual((job.status ?? null) as never, status as never)) {
      const updated = await this.#d.client.updateStatus<ImagePullJob>({ ...job, ...JOB, status });
      const rv = updated.metadata?.resourceVersion;
      if (rv) this.#d.expectations.expectUpdated(key, '', rv);
      return {};
    }
    const deadline = job.spec.completionPolicy?.activeDeadlineSeconds;
    if (job.spec.completionPolicy?.type !== 'Never' && deadline != null && status.startTime) {
      const left = deadline * 1000 - (now.getTime() - Date.parse(status.startTime));
      return { requeueAfterMs: Math.max(MIN_REQUEUE_MS, left) };
    }
    // source secret updates are not on the bus: re-read them while the job runs
    if ((job.spec.pullSecrets ?? []).length > 0) return { requeueAfterMs: SECRET_RESYNC_MS };
    return {};
  }

  async #finalize(job: ImagePullJob, secretDeps: Parameters<typeof syncJobPullSecrets>[1]): Promise<void> {
    const finalizers = job.metadata?.finalizers ?? [];
    if (!finalizers.includes(ImagePullJobKeys.DeletionProtectionFinalizer)) return;
    await syncJobPullSecrets(job, secretDeps);
    await this.#setFinalizers(
      job,
      finalizers.filter((f) => f !== ImagePullJobKeys.DeletionProtectionFinalizer),
    );
    // the job is finished with (completed, or deleted first): its trace's root span, once, as the finalizer goes
    if (this.#d.tracer) emitJobSpan(this.#d.tracer, job, this.#now());
  }

  async #setFinalizers(job: ImagePullJob, finalizers: string[]): Promise<void> {
    await this.#d.client
      .patch(
        { ...JOB, namespace: job.metadata?.namespace ?? '', name: job.metadata?.name ?? '' },
        { metadata: { finalizers, resourceVersion: job.metadata?.resourceVersion } },
        { type: 'merge' },
      )
      .catch(ignoreNotFound);
  }
}

function ignoreNotFound(e: unknown): undefined {
  if (isNotFound(e)) return undefined;
  throw e;
}
