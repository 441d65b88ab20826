/**
 * The cron job round (`pkg/controller/advancedcronjob/advancedcronjob_controller.go` and its job/broadcastjob
 * halves): read the cron job and the jobs it controls from the caches, decide (plan.ts), delete the finished jobs
 * beyond the history limits (best effort), under `Replace` delete the active ones, create the due job (a span per
 * triggered job), write the status, and come back at the next scheduled time. Time comes from the injected clock.
 *
 * A job created without an answer, or before a restart, is not created twice: its name is fixed by the scheduled
 * time, so the second create meets AlreadyExists, which counts as created.
 */
import {
  ADVANCED_CRON_JOB_API_VERSION,
  ADVANCED_CRON_JOB_KIND,
  validateAdvancedCronJob,
  type AdvancedCronJob,
  type AdvancedCronJobStatus,
} from '@regatta/api';
import {
  isAlreadyExists,
  isControlledBy,
  isNotFound,
  jsonEqual,
  refuseInvalidSpec,
  specProblemOf,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
} from '@regatta/kube';
import type { Reader } from '@regatta/kit';
import type { Expectations, ReconcileContext, Reconciler, Request, Result } from '@regatta/runtime';
import { withSpan } from '@regatta/telemetry';
import { writeStatus } from '@regatta/workload';
import type { Tracer } from '@opentelemetry/api';
import { childGvkOf, childJobFor } from './child-object.js';
import { childJobOf, type ChildJob, type JobLike } from './children.js';
import type { Clock } from './clock.js';
import { CronJobWriteError } from './errors.js';
import { planRound, statusOf, type CronRound } from './plan.js';
import { effectiveSchedule } from './schedule/effective.js';
import { DEFAULT_CRON_TIME_ZONE } from '@regatta/api';
import { toMetaTime } from './time-format.js';
import { CronEvents } from './events.js';

export interface AdvancedCronJobReconcilerDeps {
  cronJobs: Reader<AdvancedCronJob>;
  jobs: Reader<JobLike>;
  broadcastJobs: Reader<JobLike>;
  client: KubeClient;
  recorder: Pick<EventRecorder, 'normal' | 'warning'>;
  tracer: Tracer;
  clock: Clock;
  /**
   * The jobs this program created or deleted that the caches do not show yet (OpenKruise `pkg/util/expectations`),
   * fed by the Owns caches: no decision is taken on a view that lacks them (a Forbid would not see the job it just
   * created, and start another).
   */
  expectations: Expectations;
}

/** How long a round waits for the caches before looking again (the Owns change usually comes first). */
const EXPECTATIONS_RECHECK_MS = 1000;

const ACJ_GVK = { apiVersion: ADVANCED_CRON_JOB_API_VERSION, kind: ADVANCED_CRON_JOB_KIND } as const;

export class AdvancedCronJobReconciler implements Reconciler {
  readonly #events: CronEvents;

  constructor(private readonly d: AdvancedCronJobReconcilerDeps) {
    this.#events = new CronEvents(d.recorder);
  }

  async reconcile(req: Request, ctx: ReconcileContext): Promise<Result> {
    const key = `${req.namespace}/${req.name}`;
    const cached = this.d.cronJobs.get(req.namespace, req.name);
    if (!cached || cached.metadata?.deletionTimestamp) {
      this.#events.forget(key);
      this.d.expectations.deleteScale(key);
      return {};
    }
    const expected = this.d.expectations.satisfiedScale(key);
    if (!expected.satisfied) {
      ctx.log.debug({ pending: expected.pending }, 'waiting for the caches to show the jobs written');
      return { requeueAfterMs: Math.min(EXPECTATIONS_RECHECK_MS, expected.remainingMs) };
    }
    const acj: AdvancedCronJob = { ...ACJ_GVK, ...cached };
    const problem = specProblemOf('AdvancedCronJob', () => validateAdvancedCronJob(acj));
    if (problem) return refuseInvalidSpec(acj, 'AdvancedCronJob', problem, this.d.recorder, ctx.log);

    const gvk = childGvkOf(acj);
    const reader = gvk.kind === 'Job' ? this.d.jobs : this.d.broadcastJobs;
    const children = reader
      .list({ namespace: req.namespace, filter: (j) => isControlledBy(j, acj) })
      .map((j) => childJobOf(j, gvk));
    const now = this.d.clock.now().getTime();
    const round = planRound({ acj, children, now });

    await this.prune(acj, round.prune, ctx);
    let status = round.status;
    const decision = round.decision;
    switch (decision.kind) {
      case 'unparsable':
        this.#events.once(key, acj, 'Warning', 'UnparseableSchedule', decision.message);
        break;
      case 'too-many-missed':
        this.#events.once(key, acj, 'Warning', 'TooManyMissedTimes', decision.message);
        break;
      case 'too-late':
        this.#events.once(key, acj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${toMetaTime(decision.scheduledTime)}`);
        break;
      case 'forbidden':
        this.#events.once(
          key,
          acj,
          'Normal',
          'JobAlreadyActive',
          `Not starting job for ${toMetaTime(decision.scheduledTime)} because prior execution is running and concurrency policy is Forbid`,
        );
        break;
      case 'run':
        status = await this.run(acj, round, decision.scheduledTime, decision.replace, ctx);
        break;
      default:
        break;
    }
    await writeStatus(this.d.client, {
      kind: ACJ_GVK,
      workload: acj,
      // null removes a field in a merge patch: no active job, or never scheduled
      status: { type: status.type, active: status.active ?? null, lastScheduleTime: status.lastScheduleTime ?? null },
      changed: (stored) => !sameStatus(stored as AdvancedCronJobStatus | undefined, status),
    });
    const wait = round.requeueAfterMs;
    const max = this.d.clock.maxWaitMs;
    if (wait === undefined) return max === undefined ? {} : { requeueAfterMs: max };
    // a requeue that fires a moment early finds nothing due and waits the rest
    return { requeueAfterMs: max === undefined ? wait + 1 : Math.min(wait + 1, max) };
  }

  /** History limits: best effort, as upstream (a failure is logged and retried on the next round). */
  private async prune(acj: AdvancedCronJob, jobs: readonly ChildJob[], ctx: ReconcileContext): Promise<void> {
    const key = `${acj.metadata?.namespace}/${acj.metadata?.name}`;
    for (const job of jobs) {
      this.d.expectations.expectScale(key, 'delete', job.name);
      try {
        await this.d.client.delete({ ...childGvkOf(acj), namespace: job.ref.namespace ?? '', name: job.name }, {
          propagationPolicy: 'Background',
          preconditions: { uid: job.ref.uid ?? '' },
        });
        void this.d.recorder.normal(acj, 'SuccessfulDelete', `Deleted job ${job.name}`);
      } catch (err) {
        this.d.expectations.observeScale(key, 'delete', job.name);
        if (!isNotFound(err)) ctx.log.warn({ err, job: job.name }, 'could not delete an old finished job; next round retries');
      }
    }
  }

  /** Replace's deletions, then the job of `scheduledTime`; one span. Returns the status after it. */
  private async run(
    acj: AdvancedCronJob,
    round: CronRound,
    scheduledTime: number,
    replace: readonly ChildJob[],
    ctx: ReconcileContext,
  ): Promise<AdvancedCronJobStatus> {
    const parsed = effectiveSchedule(acj.spec);
    const zone = parsed.ok ? parsed.schedule.timeZone : DEFAULT_CRON_TIME_ZONE;
    const child = childJobFor(acj, scheduledTime, zone);
    const name = child.metadata?.name ?? '';
    const acjName = `${acj.metadata?.namespace}/${acj.metadata?.name}`;
    const key = acjName;
    const created = await withSpan(
      'advancedcronjob.trigger',
      {
        'advancedcronjob.name': acj.metadata?.name ?? '',
        'advancedcronjob.namespace': acj.metadata?.namespace ?? '',
        'advancedcronjob.scheduled_time': toMetaTime(scheduledTime),
        'advancedcronjob.concurrency_policy': acj.spec.concurrencyPolicy ?? 'Allow',
        'advancedcronjob.replaced': replace.length,
        'job.kind': child.kind ?? '',
        'job.name': name,
      },
      async () => {
        for (const job of replace) {
          this.d.expectations.expectScale(key, 'delete', job.name);
          try {
            await this.d.client.delete({ ...childGvkOf(acj), namespace: job.ref.namespace ?? '', name: job.name }, {
              propagationPolicy: 'Background',
            });
            void this.d.recorder.normal(acj, 'SuccessfulDelete', `Deleted job ${job.name}`);
          } catch (err) {
            this.d.expectations.observeScale(key, 'delete', job.name);
            if (!isNotFound(err)) throw new CronJobWriteError(acjName, 'delete', job.name, err);
          }
        }
        this.d.expectations.expectScale(key, 'create', name);
        try {
          const out = await this.d.client.create<KubeObject>(child);
          void this.d.recorder.normal(acj, 'SuccessfulCreate', `Created job ${name}`);
          return out;
        } catch (err) {
          // it will not show up as a change (AlreadyExists: it may be in the cache already)
          this.d.expectations.observeScale(key, 'create', name);
          if (isAlreadyExists(err)) {
            ctx.log.debug({ job: name }, 'the job of this scheduled time exists already');
            return undefined;
          }
          void this.d.recorder.warning(acj, 'FailedCreate', `Error creating job: ${err instanceof Error ? err.message : String(err)}`);
          throw new CronJobWriteError(acjName, 'create', name, err);
        }
      },
      { tracer: this.d.tracer },
    );
    const replaced = new Set(replace.map((j) => j.name));
    const active = (round.status.active ?? []).filter((r) => !replaced.has(r.name ?? ''));
    if (created && !active.some((r) => r.name === name)) {
      active.push(childJobOf(created as JobLike, childGvkOf(acj)).ref);
    }
    const last = Math.max(scheduledTime, round.status.lastScheduleTime ? Date.parse(round.status.lastScheduleTime) : 0);
    return statusOf(round.templateKind, active, last);
  }
}

function sameStatus(stored: AdvancedCronJobStatus | undefined, next: AdvancedCronJobStatus): boolean {
  return (
    (stored?.type ?? undefined) === next.type &&
    (stored?.lastScheduleTime ?? undefined) === next.lastScheduleTime &&
    jsonEqual(stored?.active ?? [], next.active ?? [])
  );
}
