/**
 * One round of a cron job, decided (`pkg/controller/advancedcronjob` reconcileJob / reconcileBroadcastJob): the
 * status from its jobs, the finished jobs beyond the history limits, then — unless paused — whether a scheduled
 * time is due, too late to start, blocked by `Forbid`, or runs (after deleting the active jobs under `Replace`),
 * and when to look again. Pure: the reconciler carries the writes out.
 *
 * One difference (docs/adr/0074-advancedcronjob.md): the last schedule time counted from is the later of the stored
 * `status.lastScheduleTime` and the jobs' annotations. Upstream reads only the jobs, so once a history limit deleted
 * the job of the last run it counted from the cron job's creation again and re-ran that time.
 */
import type { AdvancedCronJob, AdvancedCronJobStatus, ObjectReference, TemplateKind } from '@regatta/api';
import type { ChildJob } from './children.js';
import { mostRecentScheduledTime } from './children.js';
import { historyToPrune } from './history.js';
import { effectiveSchedule } from './schedule/effective.js';
import { missedRuns } from './schedule/missed.js';
import { toMetaTime } from './time-format.js';

export type CronDecision =
  /** `spec.paused`: nothing is started. */
  | { readonly kind: 'paused' }
  /** The schedule does not parse (admission refuses it; a stored one is reported). */
  | { readonly kind: 'unparsable'; readonly message: string }
  /** More than 100 missed times and no deadline: nothing starts until the spec changes. */
  | { readonly kind: 'too-many-missed'; readonly message: string }
  /** No scheduled time is due. */
  | { readonly kind: 'wait' }
  /** The due time is older than `startingDeadlineSeconds`: skipped. */
  | { readonly kind: 'too-late'; readonly scheduledTime: number }
  /** `Forbid` and a job still active: skipped. */
  | { readonly kind: 'forbidden'; readonly scheduledTime: number; readonly active: readonly ChildJob[] }
  /** Create the job of `scheduledTime`, after deleting `replace` (the active jobs, under `Replace`). */
  | { readonly kind: 'run'; readonly scheduledTime: number; readonly replace: readonly ChildJob[] };

export interface CronRound {
  readonly templateKind: TemplateKind;
  /** The status the jobs give, before this round's writes. */
  readonly status: AdvancedCronJobStatus;
  /** Finished jobs beyond the history limits, deleted best-effort. */
  readonly prune: readonly ChildJob[];
  readonly decision: CronDecision;
  /** Look again this long from now (the next scheduled time); undefined: only on a change. */
  readonly requeueAfterMs?: number;
}

export interface CronRoundInput {
  readonly acj: Pick<AdvancedCronJob, 'metadata' | 'spec' | 'status'>;
  /** The jobs of the template's kind the cron job controls. */
  readonly children: readonly ChildJob[];
  /** epoch ms. */
  readonly now: number;
}

/** What the template creates (`FindTemplateKind`: a jobTemplate wins; anything else is a BroadcastJob). */
export function templateKindOf(spec: AdvancedCronJob['spec'] | undefined): TemplateKind {
  return spec?.template?.jobTemplate != null ? 'Job' : 'BroadcastJob';
}

const timeOf = (text: string | undefined): number | undefined => {
  const ms = text ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/** The later of two optional times. */
const later = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** The status a set of jobs gives: the active ones' references and the last schedule time. */
export function statusOf(
  templateKind: TemplateKind,
  active: readonly ObjectReference[],
  lastScheduleTime: number | undefined,
): AdvancedCronJobStatus {
  return {
    type: templateKind,
    ...(active.length > 0 ? { active: [...active] } : {}),
    ...(lastScheduleTime === undefined ? {} : { lastScheduleTime: toMetaTime(lastScheduleTime) }),
  };
}

export function planRound({ acj, children, now }: CronRoundInput): CronRound {
  const spec = acj.spec;
  const templateKind = templateKindOf(spec);
  const active = children.filter((c) => c.outcome === 'Active' && !c.deleting);
  const lastScheduleTime = later(timeOf(acj.status?.lastScheduleTime), mostRecentScheduledTime(children));
  const status = statusOf(
    templateKind,
    active.map((c) => c.ref),
    lastScheduleTime,
  );
  const prune = historyToPrune(children, { successful: spec.successfulJobsHistoryLimit, failed: spec.failedJobsHistoryLimit });
  const round = (decision: CronDecision, next?: number): CronRound => ({
    templateKind,
    status,
    prune,
    decision,
    ...(next === undefined ? {} : { requeueAfterMs: Math.max(0, next - now) }),
  });

  if (spec.paused === true) return round({ kind: 'paused' });
  const parsed = effectiveSchedule(spec);
  if (!parsed.ok) return round({ kind: 'unparsable', message: `unparsable schedule ${JSON.stringify(spec.schedule)}: ${parsed.message}` });
  const missed = missedRuns({
    schedule: parsed.schedule,
    lastScheduleTime,
    creationTimestamp: timeOf(acj.metadata?.creationTimestamp) ?? now,
    startingDeadlineSeconds: spec.startingDeadlineSeconds,
    now,
  });
  if (!missed.ok) return round({ kind: 'too-many-missed', message: missed.message });
  const due = missed.lastMissed;
  if (due === undefined) return round({ kind: 'wait' }, missed.next);
  const deadline = spec.startingDeadlineSeconds;
  if (deadline != null && due + deadline * 1000 < now) return round({ kind: 'too-late', scheduledTime: due }, missed.next);
  if (spec.concurrencyPolicy === 'Forbid' && active.length > 0) {
    return round({ kind: 'forbidden', scheduledTime: due, active }, missed.next);
  }
  const replace = spec.concurrencyPolicy === 'Replace' ? active : [];
  return round({ kind: 'run', scheduledTime: due, replace }, missed.next);
}
