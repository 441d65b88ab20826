// The AdvancedCronJob scenario harness: a watcher and the advancedcronjob program on the shared local cluster,
// scoped to this file's namespaces, with a driven clock (REGATTA_ADVANCEDCRONJOB_CLOCK_FILE: the program reads the
// instant this harness writes; docs/advancedcronjob.md), and helpers that read what a user reads: the cron job's
// status, the Jobs and BroadcastJobs it created, its events, its traces in Jaeger.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCronSchedule, type AdvancedCronJob } from '@regatta/api';
import { nextScheduleTime } from '@regatta/advancedcronjob';
import type { KubeClient, KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import { eventsAbout, useScenarioLayer } from '@regatta/testing';

export const ACJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob' } as const;
export const ACJ_V1BETA1 = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob' } as const;
export const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;
export const BCJ = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'BroadcastJob' } as const;
/** The node simulator ends a Never/OnFailure pod's containers this many ms after they start (libs/node-simulator). */
export const EXIT_AFTER = 'sim.regatta.dev/exit-after-ms';
export const EXIT_CODE = 'sim.regatta.dev/exit-code';

export interface CronScenarios {
  readonly client: KubeClient;
  readonly controller: ManagedProcess;
  startController(instance: string): Promise<ManagedProcess>;
  namespace(): Promise<string>;
  /** Sets the program's clock. */
  setClock(ms: number): void;
  /** The scheduled time of `acj` after `after` (epoch ms). */
  nextRun(acj: AdvancedCronJob, after: number): number;
  cronJob(ns: string, name: string): Promise<AdvancedCronJob>;
  /** The Jobs (or BroadcastJobs) in `ns`, by name. */
  jobs(ns: string, ref?: typeof JOB | typeof BCJ): Promise<KubeObject[]>;
  events(ns: string, reason?: string): Promise<string[]>;
  /** Spans of this program's recent traces with the operation. */
  spans(operation: string): Promise<{ operationName: string; tags: Record<string, unknown> }[]>;
  readonly jaegerQuery: string | undefined;
}

export function useCronScenarios(): CronScenarios {
  const clockFile = join(mkdtempSync(join(tmpdir(), 'regatta-acj-clock-')), 'now');
  const setClock = (ms: number) => writeFileSync(clockFile, new Date(ms).toISOString());
  setClock(Date.now());
  const layer = useScenarioLayer({
    lease: 'acj',
    short: 'acj',
    scopeLabel: 'regatta-test-acj',
    controller: { app: 'advancedcronjob', env: { REGATTA_ADVANCEDCRONJOB_CLOCK_FILE: clockFile } },
  });
  return {
    get client() {
      return layer.client;
    },
    get controller() {
      return layer.controller;
    },
    get jaegerQuery() {
      return layer.jaegerQuery;
    },
    startController: (instance) => layer.startController(instance),
    namespace: () => layer.namespace(),
    setClock,
    nextRun(acj, after) {
      const parsed = parseCronSchedule(acj.spec.schedule, acj.spec.timeZone);
      if (!parsed.ok) throw new Error(parsed.message);
      const t = nextScheduleTime(parsed.schedule, after);
      if (t === undefined) throw new Error('no next run');
      return t;
    },
    cronJob: (ns, name) => layer.client.get<AdvancedCronJob>({ ...ACJ_V1BETA1, namespace: ns, name }),
    async jobs(ns, ref = JOB) {
      const items = (await layer.client.list<KubeObject>({ ...ref, namespace: ns })).items;
      return items.sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
    },
    async events(ns, reason) {
      return (await eventsAbout(layer.client, ns, 'AdvancedCronJob', reason)).map((e) => `${e.reason}: ${e.message}`);
    },
    async spans(operation) {
      if (!layer.jaegerQuery) return [];
      const res = await fetch(
        `${layer.jaegerQuery}/api/traces?service=regatta-advancedcronjob&operation=${encodeURIComponent(operation)}&limit=100&lookback=1h`,
      );
      if (!res.ok) return [];
      const body = (await res.json()) as {
        data?: { spans: { operationName: string; tags: { key: string; value: unknown }[] }[] }[];
      };
      return (body.data ?? []).flatMap((t) =>
        t.spans
          .filter((s) => s.operationName === operation)
          .map((s) => ({ operationName: s.operationName, tags: Object.fromEntries(s.tags.map((x) => [x.key, x.value])) })),
      );
    },
  };
}
