/**
 * `regatta status KIND/NAME` for the kinds that run to an end rather than roll out: BroadcastJob,
 * ContainerRecreateRequest, and AdvancedCronJob (which never ends: its status is its schedule). For each, whether it
 * is over, whether it failed, and the lines a person reads. Pure. The phases and fields are OpenKruise's
 * (`apis/apps/v1alpha1/broadcastjob_types.go`, `containerrecreaterequest_types.go`, `advancedcronjob_types.go`).
 */
import type { AdvancedCronJob, BroadcastJob, ContainerRecreateRequest } from '@regatta/api';
import { formatAge } from './history.js';

export type JobKind = 'BroadcastJob' | 'ContainerRecreateRequest' | 'AdvancedCronJob';

export interface JobKindInfo {
  kind: JobKind;
  apiVersion: string;
  title: string;
  /** kubectl-style names (plural, singular, short), the first printed in messages. */
  names: readonly string[];
  /** Whether `--watch` can wait for an end (an AdvancedCronJob has none). */
  ends: boolean;
}

export const JOB_KINDS: readonly JobKindInfo[] = [
  {
    kind: 'BroadcastJob',
    apiVersion: 'apps.kruise.io/v1alpha1',
    title: 'BroadcastJob',
    names: ['bcj', 'broadcastjob', 'broadcastjobs'],
    ends: true,
  },
  {
    kind: 'ContainerRecreateRequest',
    apiVersion: 'apps.kruise.io/v1alpha1',
    title: 'ContainerRecreateRequest',
    names: ['crr', 'containerrecreaterequest', 'containerrecreaterequests'],
    ends: true,
  },
  {
    kind: 'AdvancedCronJob',
    apiVersion: 'apps.kruise.io/v1alpha1',
    title: 'AdvancedCronJob',
    names: ['acj', 'advancedcronjob', 'advancedcronjobs'],
    ends: false,
  },
];

/** What `status` shows of one object. */
export interface JobState {
  /** A word: running, paused, completed, failed, Pending, Recreating, Completed, scheduled, waiting… */
  phase: string;
  /** Over (completed or failed); never for an AdvancedCronJob. */
  done: boolean;
  failed: boolean;
  /** The summary after the title line, each a line without its newline. */
  lines: string[];
}

type Any = BroadcastJob | ContainerRecreateRequest | AdvancedCronJob;

const seconds = (from: string | undefined, to: number): number | undefined =>
  from === undefined ? undefined : Math.max(0, Math.round((to - Date.parse(from)) / 1000));

/** The state of `obj`, a `kind` object, at `now` (ms). */
export function jobState(kind: JobKind, obj: Any, now: number): JobState {
  switch (kind) {
    case 'BroadcastJob':
      return broadcastJobState(obj as BroadcastJob, now);
    case 'ContainerRecreateRequest':
      return crrState(obj as ContainerRecreateRequest);
    case 'AdvancedCronJob':
      return cronJobState(obj as AdvancedCronJob, now);
  }
}

function broadcastJobState(job: BroadcastJob, now: number): JobState {
  const s = job.status;
  if (!s?.phase)
    return {
      phase: 'waiting',
      done: false,
      failed: false,
      lines: ['waiting for the broadcastjob controller'],
    };
  const pods = `${s.succeeded} of ${s.desired} pods succeeded, ${s.active} active, ${s.failed} failed`;
  const failedCondition = (s.conditions ?? []).find((c) => c.type === 'Failed' && c.status === 'True');
  const took = s.completionTime
    ? seconds(s.startTime, Date.parse(s.completionTime))
    : seconds(s.startTime, now);
  const lines = [`${s.phase}: ${pods}`];
  if (took !== undefined) lines.push(`${s.completionTime ? 'took' : 'running for'} ${formatAge(took)}`);
  if (failedCondition)
    lines.push(`${failedCondition.reason ?? 'Failed'}: ${failedCondition.message ?? ''}`.trimEnd());
  if (s.phase === 'running' && job.spec?.completionPolicy?.type === 'Never')
    lines.push('completionPolicy Never: it keeps running (new nodes get pods) and never completes');
  const failed = s.phase === 'failed';
  return { phase: s.phase, done: failed || s.phase === 'completed', failed, lines };
}

function crrState(crr: ContainerRecreateRequest): JobState {
  const s = crr.status;
  const pod = `pod ${JSON.stringify(crr.spec?.podName ?? '')}`;
  if (!s?.phase)
    return { phase: 'waiting', done: false, failed: false, lines: [`${pod}: waiting for the node agent`] };
  const states = s.containerRecreateStates ?? [];
  const failedContainers = states.filter((c) => c.phase === 'Failed');
  const lines = [`${s.phase}: ${pod}`];
  for (const c of states) lines.push(`  ${c.name}: ${c.phase}${c.message ? ` (${c.message})` : ''}`);
  if (s.message) lines.push(s.message);
  const done = s.phase === 'Completed';
  // Completed with a message is the deadline or the pod gone; a Failed container is a failed recreation
  const failed = done && (failedContainers.length > 0 || !!s.message);
  return { phase: s.phase, done, failed, lines };
}

function cronJobState(acj: AdvancedCronJob, now: number): JobState {
  const spec = acj.spec;
  const active = acj.status?.active ?? [];
  const paused = spec?.paused === true;
  const zone = spec?.timeZone ? ` (${spec.timeZone})` : '';
  const lines = [`schedule ${JSON.stringify(spec?.schedule ?? '')}${zone}${paused ? ', paused' : ''}`];
  const last = acj.status?.lastScheduleTime;
  lines.push(
    last ? `last scheduled ${formatAge(seconds(last, now) ?? 0)} ago (${last})` : 'not scheduled yet',
  );
  const template = spec?.template?.broadcastJobTemplate ? 'BroadcastJob' : 'Job';
  lines.push(
    active.length === 0
      ? `no active ${template}`
      : `active: ${active.map((a) => `${a.kind ?? template}/${a.name ?? ''}`).join(', ')}`,
  );
  return { phase: paused ? 'paused' : 'scheduled', done: false, failed: false, lines };
}
