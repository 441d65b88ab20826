import type { AdvancedCronJob } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import type { ChildJob, JobOutcome } from './children.js';
import { planRound, templateKindOf } from './plan.js';

const T0 = Date.parse('2026-12-07T10:00:30Z');
const at = (hhmmss: string) => Date.parse(`2026-12-07T${hhmmss}Z`);

const acj = (spec: Partial<AdvancedCronJob['spec']> = {}, status: AdvancedCronJob['status'] = {}): AdvancedCronJob => ({
  metadata: { name: 'c', namespace: 'ns', uid: 'u1', creationTimestamp: new Date(T0).toISOString() },
  spec: {
    schedule: '*/5 * * * *',
    concurrencyPolicy: 'Allow',
    paused: false,
    successfulJobsHistoryLimit: 3,
    failedJobsHistoryLimit: 1,
    template: { jobTemplate: { spec: { template: { spec: { containers: [] } } } } },
    ...spec,
  },
  status,
});

const job = (name: string, outcome: JobOutcome, scheduled?: string, start?: string, deleting = false): ChildJob => ({
  name,
  ref: { kind: 'Job', namespace: 'ns', name, uid: `uid-${name}`, apiVersion: 'batch/v1' },
  outcome,
  ...(scheduled ? { scheduledTime: at(scheduled) } : {}),
  ...(start ? { startTime: at(start) } : {}),
  deleting,
});

describe('planRound', () => {
  it.each([
    // [case, spec, jobs, now, decision kind, scheduled time, requeue ms]
    ['nothing due', {}, [], '10:04:00', 'wait', undefined, 60_000],
    ['due: run', {}, [], '10:05:02', 'run', '10:05:00', 298_000],
    ['already ran this time', {}, [job('c-1', 'Active', '10:05:00')], '10:05:02', 'wait', undefined, 298_000],
    ['paused', { paused: true }, [], '10:05:02', 'paused', undefined, undefined],
    ['Forbid with an active job', { concurrencyPolicy: 'Forbid' }, [job('a', 'Active', '10:05:00')], '10:10:01', 'forbidden', '10:10:00', 299_000],
    ['Forbid, the last one finished', { concurrencyPolicy: 'Forbid' }, [job('a', 'Complete', '10:05:00')], '10:10:01', 'run', '10:10:00', 299_000],
    ['Forbid ignores a job being deleted', { concurrencyPolicy: 'Forbid' }, [job('a', 'Active', '10:05:00', undefined, true)], '10:10:01', 'run', '10:10:00', 299_000],
    ['Allow with an active job', {}, [job('a', 'Active', '10:05:00')], '10:10:01', 'run', '10:10:00', 299_000],
    ['late beyond the deadline', { startingDeadlineSeconds: 10 }, [], '10:05:30', 'wait', undefined, 270_000],
    ['late within the deadline', { startingDeadlineSeconds: 60 }, [], '10:05:30', 'run', '10:05:00', 270_000],
    ['unparsable schedule', { schedule: 'every day' }, [], '10:05:30', 'unparsable', undefined, undefined],
    ['too many missed', { schedule: '* * * * *' }, [], '12:00:00', 'too-many-missed', undefined, undefined],
  ] as const)('%s', (_case, spec, jobs, now, kind, scheduled, requeue) => {
    const round = planRound({ acj: acj(spec), children: jobs, now: at(now) });
    expect(round.decision.kind).toBe(kind);
    const d = round.decision as { scheduledTime?: number };
    expect(d.scheduledTime === undefined ? undefined : new Date(d.scheduledTime).toISOString().slice(11, 19)).toBe(scheduled);
    expect(round.requeueAfterMs).toBe(requeue);
  });

  it('Replace deletes the active jobs before running', () => {
    const jobs = [job('a', 'Active', '10:05:00'), job('b', 'Complete', '10:00:00')];
    const round = planRound({ acj: acj({ concurrencyPolicy: 'Replace' }), children: jobs, now: at('10:10:00') });
    expect(round.decision).toEqual({ kind: 'run', scheduledTime: at('10:10:00'), replace: [jobs[0]] });
  });

  it('the status lists the active jobs and the latest scheduled time', () => {
    const jobs = [job('a', 'Active', '10:05:00'), job('b', 'Complete', '10:10:00'), job('c', 'Active', '10:15:00', undefined, true)];
    const round = planRound({ acj: acj(), children: jobs, now: at('10:16:00') });
    expect(round.status).toEqual({ type: 'Job', active: [jobs[0]?.ref], lastScheduleTime: '2026-12-07T10:15:00Z' });
  });

  it('the stored last schedule time counts when the jobs are gone (no re-run after a history limit pruned them)', () => {
    const round = planRound({
      acj: acj({ successfulJobsHistoryLimit: 0 }, { lastScheduleTime: '2026-12-07T10:05:00Z' }),
      children: [],
      now: at('10:06:00'),
    });
    expect(round.decision.kind).toBe('wait');
    expect(round.status).toEqual({ type: 'Job', lastScheduleTime: '2026-12-07T10:05:00Z' });
  });

  it('no job and never scheduled: a status with the type only', () => {
    expect(planRound({ acj: acj(), children: [], now: at('10:01:00') }).status).toEqual({ type: 'Job' });
  });

  it('prunes the history beyond the limits even when paused', () => {
    const jobs = [
      job('s1', 'Complete', '10:05:00', '10:05:01'),
      job('s2', 'Complete', '10:10:00', '10:10:01'),
      job('f1', 'Failed', '10:15:00', '10:15:01'),
      job('f2', 'Failed', '10:20:00', '10:20:01'),
    ];
    const round = planRound({
      acj: acj({ paused: true, successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 }),
      children: jobs,
      now: at('10:21:00'),
    });
    expect(round.prune.map((j) => j.name)).toEqual(['f1', 's1']);
  });

  it.each([
    [{ jobTemplate: {} }, 'Job'],
    [{ broadcastJobTemplate: {} }, 'BroadcastJob'],
    [{}, 'BroadcastJob'],
  ] as const)('template %j creates a %s', (template, kind) => {
    expect(templateKindOf({ schedule: '', template })).toBe(kind);
  });
});
