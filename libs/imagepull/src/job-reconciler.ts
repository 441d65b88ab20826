/**
 * The ImagePullJob reconciler (docs/imagepull.md; OpenKruise `pkg/controller/imagepulljob/imagepulljob_controller.go`
 * Reconcile): finalize deleting or completed jobs (release synced secrets, drop the finalizer, delete after
 * `ttlSecondsAfterFinished`), add the finalizer, select the target NodeImages (bus caches), sync pull secrets,
 * compute the status, write the job's tag into at most `parallelism − active` more NodeImages (leaving out, with a
 * `NodeImageFull` event, one that has no room: nodeimage-room.ts), write the status.
 * Dropping the finalizer of a finished job also emits the root span of its trace (job-trace.ts).
 * The job and the NodeImages are read as the newer of the cache and this controller's last write of them
 * (`OwnWrites` of libs/kube): a reconcile does not wait for the bus to echo what the previous one wrote.
 */
import {
  IMAGE_PULL_JOB_API_VERSION,
  IMAGE_PULL_JOB_KIND,
  ImagePullJobKeys,
  type ImagePullJob,
  type NodeImage,
  type ReferenceObject,
} from '@regatta/api';
import { isNotFound, OwnWrites, type EventRecorder, type KubeClient, type KubeObject, refuseInvalidSpec, SpecGuard } from '@regatta/kube';
import type { Reconciler, ReconcileContext, Request, Result } from '@regatta/runtime';
import { StatusCadence } from '@regatta/workload';
import type { Tracer } from '@opentelemetry/api';
import { emitJobSpan } from './job-trace.js';
import { entryRoomProblem, NO_ROOM_RETRY_MS, NoRoomNodes, StoredSizes } from './nodeimage-room.js';
import { NodeImageWrites, type TagChange } from './nodeimage-writes.js';
import { syncJobPullSecrets } from './secret-sync.js';
import { specProblem } from './spec-guard.js';
import { decideJobStatusWrite } from './status-cadence.js';
import { calculateStatus } from './status.js';
import { nextImageEntry, syncBudget, type TagPolicyOptions } from './sync.js';
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
const MIN_REQUEUE_MS = 1_000;
/** NodeImage writes of one reconcile in flight together. */
const NODE_IMAGE_WRITES = 10;
/** The event of a node left out because its NodeImage has no room for the job's tag (nodeimage-room.ts). */
export const NODE_IMAGE_FULL_REASON = 'NodeImageFull';
/** Re-reads the source secrets of a running job that has some (their updates are not on the bus). */
export const SECRET_RESYNC_MS = 5_000;

export class ImagePullJobReconciler implements Reconciler {
  readonly #d: ImagePullJobReconcilerDeps;
  readonly #now: () => Date;
  /** The answers of this controller's writes, read over a cache that has not shown them yet (libs/kube `OwnWrites`). */
  readonly #writtenJobs = new OwnWrites();
  readonly #writtenNodeImages = new OwnWrites();
  /** When this process last wrote each job's status (status-cadence.ts). */
  readonly #statusWrites = new StatusCadence();
  readonly #specGuard = new SpecGuard(specProblem);
  readonly #noRoom = new NoRoomNodes();
  /** The size of each NodeImage version seen as stored, for the room check on the cache (nodeimage-room.ts). */
  readonly #nodeImageSizes = new StoredSizes();
  readonly #nodeImageWrites: NodeImageWrites;

  constructor(deps: ImagePullJobReconcilerDeps) {
    this.#d = deps;
    this.#now = deps.now ?? (() => new Date());
    this.#nodeImageWrites = new NodeImageWrites(deps.client, this.#nodeImageSizes);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = `${req.namespace ?? ''}/${req.name}`;
    const cached = this.#d.imagepulljobs.get(req.namespace, req.name) as ImagePullJob | undefined;
    if (!cached) {
      this.#writtenJobs.forget(req.namespace, req.name);
      this.#statusWrites.forget(key);
      this.#specGuard.forget(key);
      this.#noRoom.forget(key);
      return {};
    }
    let job = this.#writtenJobs.view(cached);

    const secretDeps = { client: this.#d.client, namespace: this.#d.daemonConfigNamespace, log: ctx.log };
    if (job.metadata?.deletionTimestamp) {
      await this.#finalize(job, secretDeps);
      return {};
    }
    if (job.status?.completionTime) {
      this.#statusWrites.forget(key);
      this.#noRoom.forget(key);
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
    if (problem) return refuseInvalidSpec(job, 'ImagePullJob', problem, this.#d.recorder, ctx.log);
    if (!(job.metadata?.finalizers ?? []).includes(ImagePullJobKeys.DeletionProtectionFinalizer)) {
      // stored before any NodeImage gets the job's tag (the clean-up is guaranteed), and the same reconcile goes on
      // with the answer instead of waiting for its echo (the webhook adds the finalizer on create: docs/imagepull.md)
      const patched = await this.#setFinalizers(job, [
        ...(job.metadata?.finalizers ?? []),
        ImagePullJobKeys.DeletionProtectionFinalizer,
      ]);
      if (!patched) return {};
      job = patched;
    }

    const pods = job.spec.podSelector
      ? (this.#d.pods.list({ namespace: req.namespace ?? '' }) as PodLike[])
      : [];
    const nodeImages = (this.#d.nodeimages.list() as NodeImage[]).map((ni) => this.#writtenNodeImages.view(ni));
    const targets = targetNodeImages(job, nodeImages, pods);
    const secrets = await syncJobPullSecrets(job, secretDeps);
    const now = this.#now();
    const { status: before, notSynced } = calculateStatus(job, targets, secrets, now);

    // the NodeImages of this round are written side by side, NODE_IMAGE_WRITES at a time: a job's first round
    // (parallelism nodes) starts its pulls together instead of one GET and PUT after another (docs/benchmarks-imagepull.md §9).
    // A node whose NodeImage has no room is left out and the next one takes its place in the round
    const queue = this.#noRoom.writable(key, notSynced, now.getTime());
    let budget = syncBudget(job, before.active ?? 0, queue.length);
    let attempted = false;
    while (budget > 0 && queue.length > 0) {
      const batch = queue.splice(0, Math.min(budget, NODE_IMAGE_WRITES));
      attempted = true;
      const full = await this.#writeTags(job, key, batch, nodeImages, secrets, now, ctx.log);
      if (full.size > 0) this.#leaveOut(job, key, full, now, ctx.log);
      budget -= batch.length - full.size;
    }

    // the status counts the nodes just given the tag as active (computed before the writes, it would not, and the
    // next reconcile would write it again), and counter-only changes are paced (status-cadence.ts)
    const status = attempted
      ? calculateStatus(job, targets.map((ni) => this.#writtenNodeImages.view(ni)), secrets, now).status
      : before;
    const write = decideJobStatusWrite({
      stored: job.status,
      next: status,
      lastWriteMs: this.#statusWrites.lastWrite(key, now.getTime()),
      nowMs: now.getTime(),
    });
    if (write.action === 'write') {
      const updated = await this.#d.client.updateStatus<ImagePullJob>({ ...job, ...JOB, status });
      this.#writtenJobs.record(updated);
      this.#statusWrites.wrote(key, this.#now().getTime());
      return {};
    }
    const after: number[] = write.action === 'defer' ? [write.afterMs] : [];
    const deadline = job.spec.completionPolicy?.activeDeadlineSeconds;
    if (job.spec.completionPolicy?.type !== 'Never' && deadline != null && status.startTime) {
      const left = deadline * 1000 - (now.getTime() - Date.parse(status.startTime));
      after.push(Math.max(MIN_REQUEUE_MS, left));
    }
    // source secret updates are not on the bus: re-read them while the job runs
    if ((job.spec.pullSecrets ?? []).length > 0) after.push(SECRET_RESYNC_MS);
    const retryFull = this.#noRoom.nextRetryMs(key, now.getTime());
    if (retryFull !== undefined) after.push(Math.max(MIN_REQUEUE_MS, retryFull));
    return after.length > 0 ? { requeueAfterMs: Math.min(...after) } : {};
  }

  /**
   * Writes the job's tag into the named NodeImages (nodeimage-writes.ts: read afresh, coalesced with other jobs'
   * tags). Answers the nodes whose NodeImage had no room for it, with why (nothing is written into those); throws the
   * first failed write. A NodeImage that, as last seen (`seen`), has no room is not read: jobs waiting for room cost
   * no requests (docs/reliability.md finding 25).
   */
  async #writeTags(
    job: ImagePullJob,
    key: string,
    names: readonly string[],
    seen: readonly NodeImage[],
    secrets: readonly ReferenceObject[],
    now: Date,
    log: ReconcileContext['log'],
  ): Promise<Map<string, string>> {
    const full = new Map<string, string>();
    const change: TagChange = (ni) => nextImageEntry(ni, job, secrets, now, this.#d.tagPolicy);
    const writes = await Promise.allSettled(
      names.map(async (name) => {
        const last = seen.find((ni) => ni.metadata?.name === name);
        const next = last && change(last);
        const noRoomSeen = next && entryRoomProblem(last, this.#nodeImageSizes.of(last), next.name, next.entry);
        const outcome = noRoomSeen
          ? { result: 'no-room' as const, problem: noRoomSeen }
          : await this.#nodeImageWrites.write(name, change);
        if (outcome.result === 'no-room') full.set(name, outcome.problem);
        if (outcome.result === 'written') {
          this.#writtenNodeImages.record(outcome.nodeImage);
          log.debug({ job: key, nodeImage: name }, 'image tag written into NodeImage');
        }
      }),
    );
    const failed = writes.find((w): w is PromiseRejectedResult => w.status === 'rejected');
    if (failed) throw failed.reason;
    return full;
  }

  /**
   * Nodes whose NodeImage has no room for the tag (name → why): left out for a while, with a log line and a Warning
   * on the job for each (the event recorder's spam filter bounds those).
   */
  #leaveOut(job: ImagePullJob, key: string, full: ReadonlyMap<string, string>, now: Date, log: ReconcileContext['log']): void {
    // a warn line once per job (a job waiting for room retries every minute); the events go on, spam-filtered
    const level = this.#noRoom.firstFor(key) ? 'warn' : 'debug';
    log[level]({ job: key, nodeImages: [...full.keys()] }, 'NodeImages have no room for the image tag; nodes left out for now');
    for (const [node, problem] of full) {
      this.#noRoom.leaveOut(key, node, now.getTime());
      void this.#d.recorder?.warning(
        job,
        NODE_IMAGE_FULL_REASON,
        `not pulling ${job.spec.image} on node ${node} for now: ${problem}. Delete finished ImagePullJobs that ` +
          `select this node or make spec.sandboxConfig smaller; trying again in ${NO_ROOM_RETRY_MS / 1000} s`,
      );
    }
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

  /** The job as the patch left it; undefined when it is gone. */
  async #setFinalizers(job: ImagePullJob, finalizers: string[]): Promise<ImagePullJob | undefined> {
    const patched = await this.#d.client
      .patch<ImagePullJob>(
        { ...JOB, namespace: job.metadata?.namespace ?? '', name: job.metadata?.name ?? '' },
        { metadata: { finalizers, resourceVersion: job.metadata?.resourceVersion } },
        { type: 'merge' },
      )
      .catch(ignoreNotFound);
    if (patched) this.#writtenJobs.record(patched);
    return patched;
  }
}

function ignoreNotFound(e: unknown): undefined {
  if (isNotFound(e)) return undefined;
  throw e;
}
