// AdvancedCronJob scenarios on the shared local cluster (spec: docs/advancedcronjob.md; upstream
// test/e2e/apps/v1alpha1/advancedcronjob.go), with the program's clock driven by the harness: a Job created at the
// scheduled time (status.active, lastScheduleTime, the event, the span), Forbid skipping while one is active, Replace
// deleting the active one, the history limits, paused, startingDeadlineSeconds skipping a late start, a
// broadcastJobTemplate creating a BroadcastJob, admission, and a restart that does not create a second job for the
// same scheduled time. kube-controller-manager runs the Jobs; the simulated nodes end their pods (EXIT_AFTER).
import { describe, expect, it } from 'vitest';
import type { AdvancedCronJob } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { holds } from '@regatta/testing';
import { ACJ, BCJ, EXIT_AFTER, EXIT_CODE, JOB, useCronScenarios } from './testing/harness.js';

const h = useCronScenarios();
const POLL = { timeout: 60_000, interval: 300 };
const SCHEDULE = '0 * * * *';

type JobObj = KubeObject & { status?: { conditions?: { type: string; status: string }[] } };

/** A cron job whose pods exit after `runMs` (undefined: they run until deleted) with `exitCode`. */
function cronJob(ns: string, name: string, spec: Record<string, unknown> = {}, runMs?: number, exitCode = 0): AdvancedCronJob {
  const annotations: Record<string, string> = {};
  if (runMs !== undefined) annotations[EXIT_AFTER] = String(runMs);
  if (exitCode !== 0) annotations[EXIT_CODE] = String(exitCode);
  return {
    ...ACJ,
    metadata: { name, namespace: ns },
    spec: {
      schedule: SCHEDULE,
      template: {
        jobTemplate: {
          metadata: { labels: { app: name }, annotations: { team: 'payments' } },
          spec: {
            backoffLimit: 0,
            template: {
              metadata: { annotations },
              // the simulator runs `sleep 3600` for an hour, unless EXIT_AFTER ends it sooner
              spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '3600'] }] },
            },
          },
        },
      },
      ...spec,
    },
  } as AdvancedCronJob;
}

/** Creates it with the clock at the real time, and returns it with its scheduled times after creation. */
async function create(acj: AdvancedCronJob): Promise<{ acj: AdvancedCronJob; runs: number[] }> {
  h.setClock(Date.now());
  const created = await h.client.create(acj);
  const t0 = Date.parse(created.metadata?.creationTimestamp ?? '');
  const runs: number[] = [];
  for (let t = t0; runs.length < 4; ) runs.push((t = h.nextRun(created, t)));
  return { acj: created, runs };
}

const names = async (ns: string, ref: typeof JOB | typeof BCJ = JOB) =>
  (await h.jobs(ns, ref)).filter((j) => !j.metadata?.deletionTimestamp).map((j) => j.metadata?.name);
const jobName = (acj: AdvancedCronJob, t: number) => `${acj.metadata?.name}-${Math.floor(t / 1000)}`;
const finished = async (ns: string, name: string) => {
  const job = await h.client.getOrUndefined<JobObj>({ ...JOB, namespace: ns, name });
  return job?.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type;
};
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describe('AdvancedCronJob with a jobTemplate', () => {
  it('creates a Job at the scheduled time, named after it, and shows it in status.active and lastScheduleTime', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create(cronJob(ns, 'report', {}, 500));
    const first = runs[0]!;
    // created, and defaulted by the webhook as upstream
    expect(acj.spec).toMatchObject({ concurrencyPolicy: 'Allow', paused: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    await expect.poll(async () => (await h.cronJob(ns, 'report')).status?.type, POLL).toBe('Job');

    h.setClock(first - 1000);
    await holds(2000, () => names(ns), (n) => expect(n).toEqual([]));

    h.setClock(first + 1000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, first)]);
    const job = (await h.jobs(ns))[0]!;
    expect(job.metadata?.labels).toMatchObject({ app: 'report' });
    expect(job.metadata?.annotations).toMatchObject({ team: 'payments', 'apps.kruise.io/scheduled-at': iso(first) });
    expect(job.metadata?.ownerReferences).toEqual([
      { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'report', uid: acj.metadata?.uid, controller: true, blockOwnerDeletion: true },
    ]);
    const status = (await h.cronJob(ns, 'report')).status;
    expect(status?.lastScheduleTime).toBe(iso(first));
    expect(status?.active?.map((r) => `${r.kind}/${r.name}`) ?? []).toEqual(
      (await finished(ns, job.metadata!.name!)) ? [] : [`Job/${jobName(acj, first)}`],
    );
    expect(await h.events(ns, 'SuccessfulCreate')).toEqual([`SuccessfulCreate: Created job ${jobName(acj, first)}`]);

    // kube-controller-manager runs it to completion; the cron job's active list empties
    await expect.poll(() => finished(ns, jobName(acj, first)), POLL).toBe('Complete');
    await expect.poll(async () => (await h.cronJob(ns, 'report')).status?.active ?? [], POLL).toEqual([]);
    expect((await h.cronJob(ns, 'report')).status?.lastScheduleTime).toBe(iso(first));

    // a span per triggered job
    if (h.jaegerQuery) {
      await expect
        .poll(async () => (await h.spans('advancedcronjob.trigger')).some((s) => s.tags['job.name'] === jobName(acj, first)), POLL)
        .toBe(true);
    }
  });

  it('Forbid skips a run while the previous job is still active', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create(cronJob(ns, 'forbid', { concurrencyPolicy: 'Forbid' }));
    h.setClock(runs[0]! + 1000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[0]!)]);
    h.setClock(runs[1]! + 1000);
    await expect.poll(() => h.events(ns, 'JobAlreadyActive'), POLL).toHaveLength(1);
    await holds(2000, () => names(ns), (n) => expect(n).toEqual([jobName(acj, runs[0]!)]));
    expect((await h.cronJob(ns, 'forbid')).status?.active?.map((r) => r.name)).toEqual([jobName(acj, runs[0]!)]);
  });

  it('Replace deletes the active job and starts the new one', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create(cronJob(ns, 'replace', { concurrencyPolicy: 'Replace' }));
    h.setClock(runs[0]! + 1000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[0]!)]);
    h.setClock(runs[1]! + 1000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[1]!)]);
    await expect
      .poll(async () => (await h.cronJob(ns, 'replace')).status?.active?.map((r) => r.name), POLL)
      .toEqual([jobName(acj, runs[1]!)]);
    expect(await h.events(ns, 'SuccessfulDelete')).toEqual([`SuccessfulDelete: Deleted job ${jobName(acj, runs[0]!)}`]);
  });

  it('keeps successfulJobsHistoryLimit finished jobs and failedJobsHistoryLimit failed ones', async () => {
    const ns = await h.namespace();
    const ok = await create(cronJob(ns, 'ok', { successfulJobsHistoryLimit: 1 }, 300));
    const bad = await create(cronJob(ns, 'bad', { failedJobsHistoryLimit: 0 }, 300, 1));
    for (let i = 0; i < 3; i++) {
      h.setClock(Math.max(ok.runs[i]!, bad.runs[i]!) + 1000);
      await expect.poll(() => finished(ns, jobName(ok.acj, ok.runs[i]!)), POLL).toBe('Complete');
    }
    // the two older successful jobs are deleted, the latest kept; every failed job is deleted
    await expect.poll(() => names(ns), POLL).toEqual([jobName(ok.acj, ok.runs[2]!)]);
    expect((await h.cronJob(ns, 'bad')).status?.lastScheduleTime).toBe(iso(bad.runs[2]!));
  });

  it('paused creates nothing; resumed, it runs the latest missed time', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create(cronJob(ns, 'paused', { paused: true }, 300));
    h.setClock(runs[1]! + 1000);
    await holds(3000, () => names(ns), (n) => expect(n).toEqual([]));
    await h.client.patch({ ...ACJ, namespace: ns, name: 'paused' }, { spec: { paused: false } }, { type: 'merge' });
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[1]!)]);
  });

  it('startingDeadlineSeconds skips a start that is too late, and runs the next one in time', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create(cronJob(ns, 'deadline', { startingDeadlineSeconds: 30 }, 300));
    h.setClock(runs[0]! + 60_000);
    await holds(3000, () => names(ns), (n) => expect(n).toEqual([]));
    h.setClock(runs[1]! + 5000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[1]!)]);
  });
});

describe('AdvancedCronJob with a broadcastJobTemplate', () => {
  it('creates a BroadcastJob at the scheduled time', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create({
      ...ACJ,
      metadata: { name: 'patch', namespace: ns },
      spec: {
        schedule: SCHEDULE,
        template: {
          broadcastJobTemplate: {
            metadata: { labels: { app: 'patch' } },
            spec: {
              parallelism: 10,
              completionPolicy: { type: 'Always' },
              template: {
                metadata: { annotations: { [EXIT_AFTER]: '300' } },
                spec: { restartPolicy: 'Never', containers: [{ name: 'patch', image: 'busybox:1.36' }] },
              },
            },
          },
        },
      },
    } as AdvancedCronJob);
    h.setClock(runs[0]! + 1000);
    await expect.poll(() => names(ns, BCJ), POLL).toEqual([jobName(acj, runs[0]!)]);
    const bcj = (await h.jobs(ns, BCJ))[0] as KubeObject & { spec?: { parallelism?: number } };
    expect(bcj.spec?.parallelism).toBe(10);
    expect(bcj.metadata?.labels).toEqual({ app: 'patch' });
    expect(bcj.metadata?.annotations?.['apps.kruise.io/scheduled-at']).toBe(iso(runs[0]!));
    expect(bcj.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'AdvancedCronJob', name: 'patch', controller: true });
    const status = (await h.cronJob(ns, 'patch')).status;
    expect(status?.type).toBe('BroadcastJob');
    expect(status?.lastScheduleTime).toBe(iso(runs[0]!));
    expect(status?.active?.map((r) => `${r.apiVersion} ${r.kind}/${r.name}`)).toEqual([
      `apps.kruise.io/v1beta1 BroadcastJob/${jobName(acj, runs[0]!)}`,
    ]);
  });
});

describe('AdvancedCronJob admission', () => {
  it.each([
    [{ schedule: '61 * * * *' }, 'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59)'],
    [{ schedule: '0 8 * * *', timeZone: 'Mars/Olympus' }, 'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone'],
    [{ concurrencyPolicy: 'Forbid', template: {} }, 'spec.template: Forbidden: spec must have one template'],
  ])('refuses %j naming the field', async (spec, message) => {
    const ns = await h.namespace();
    const err = await h.client.create(cronJob(ns, 'bad', spec)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(err instanceof Error ? err.message : err)).toContain(message);
  });
});

// last: the killed instance's webhook address stays registered until the new one takes the lease
describe('AdvancedCronJob across a restart of the program', () => {
  it('a restart of the program does not create a second job for the same scheduled time', async () => {
    const ns = await h.namespace();
    const { acj, runs } = await create(cronJob(ns, 'restart', {}, 300));
    h.setClock(runs[0]! + 1000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[0]!)]);
    h.controller.killNow();
    await h.startController('b');
    await holds(4000, () => names(ns), (n) => expect(n).toEqual([jobName(acj, runs[0]!)]));
    // killed perhaps before its status write: the new instance reads the time back from the job's annotation
    await expect.poll(async () => (await h.cronJob(ns, 'restart')).status?.lastScheduleTime, POLL).toBe(iso(runs[0]!));
    await holds(2000, () => names(ns), (n) => expect(n).toEqual([jobName(acj, runs[0]!)]));
    // and the new instance runs the next time
    h.setClock(runs[1]! + 1000);
    await expect.poll(() => names(ns), POLL).toEqual([jobName(acj, runs[0]!), jobName(acj, runs[1]!)]);
  });
});
