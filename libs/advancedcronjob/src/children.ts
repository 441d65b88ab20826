/**
 * The jobs a cron job created, as its controller reads them (`pkg/controller/advancedcronjob`
 * advancedcronjob_job_controller.go, advancedcronjob_broadcastjob_controller.go): active until a `Complete` or
 * `Failed` condition is true, the scheduled time read back from the `apps.kruise.io/scheduled-at` annotation.
 * A Job and a BroadcastJob read alike.
 */
import { AdvancedCronJobAnnotations, type BatchJobCondition, type ObjectReference } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

/** Where a job stands: running, or finished one way or the other. */
export type JobOutcome = 'Active' | 'Complete' | 'Failed';

export interface ChildJob {
  readonly name: string;
  /** The reference status.active holds (`ref.GetReference`: kind, namespace, name, uid, apiVersion, resourceVersion). */
  readonly ref: ObjectReference;
  readonly outcome: JobOutcome;
  /** epoch ms from the annotation; undefined when absent or unparsable. */
  readonly scheduledTime?: number;
  /** `status.startTime`, epoch ms. */
  readonly startTime?: number;
  /** Already being deleted: neither pruned again nor counted active. */
  readonly deleting: boolean;
}

/** A Job's or BroadcastJob's fields read here. */
export interface JobLike extends KubeObject {
  status?: { conditions?: BatchJobCondition[]; startTime?: string; [key: string]: unknown };
}

/** `Complete` or `Failed` when a condition of that type is True (a job carries at most one of them). */
export function outcomeOf(job: JobLike): JobOutcome {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return 'Active';
}

const timeOf = (text: string | undefined): number | undefined => {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
};

/** What the cron job's controller reads of one of its jobs; `apiVersion`/`kind` for the reference. */
export function childJobOf(job: JobLike, gvk: { apiVersion: string; kind: string }): ChildJob {
  const m = job.metadata ?? {};
  const ref: ObjectReference = {
    kind: gvk.kind,
    namespace: m.namespace ?? '',
    name: m.name ?? '',
    uid: m.uid ?? '',
    apiVersion: gvk.apiVersion,
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
  const scheduledTime = timeOf(m.annotations?.[AdvancedCronJobAnnotations.ScheduledAt]);
  const startTime = timeOf(job.status?.startTime);
  return {
    name: m.name ?? '',
    ref,
    outcome: outcomeOf(job),
    ...(scheduledTime === undefined ? {} : { scheduledTime }),
    ...(startTime === undefined ? {} : { startTime }),
    deleting: !!m.deletionTimestamp,
  };
}

/** The latest scheduled time among the jobs (undefined when none carries one). */
export function mostRecentScheduledTime(children: readonly ChildJob[]): number | undefined {
  let latest: number | undefined;
  for (const c of children) if (c.scheduledTime !== undefined && (latest === undefined || c.scheduledTime > latest)) latest = c.scheduledTime;
  return latest;
}

/** A Job or BroadcastJob some AdvancedCronJob controls: the only ones the program's caches keep. */
export function isCronJobChild(obj: KubeObject): boolean {
  return (obj.metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.kind === 'AdvancedCronJob');
}
