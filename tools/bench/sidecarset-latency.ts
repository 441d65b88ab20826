// Benchmark 8a (issue 12): what the SidecarSet pod webhook costs a pod creation. On a cluster of its own (API
// server, etcd, nats-server; no scheduler, no nodes: pods stay Pending, only the create call is measured), N pods
// created one at a time (one request in flight, so the figure is the request's own latency, not queueing) in
// three phases of the same run:
//   a. baseline: no sidecarset program, no webhook configuration;
//   b. unselected: the watcher and the sidecarset program running (webhooks served and registered), one
//      SidecarSet selecting `bench-sidecar=yes`; pods without that label;
//   c. selected: pods with the label (injected with one sidecar).
// b and c alternate pod by pod, so both see the same machine; the baseline is measured before the program starts
// and again after it stopped and its configurations were removed, and both runs are pooled (the load of a shared
// machine drifts). Latency is client-side, from sending the POST to its response. Nothing is a timed assertion.
import { join } from 'node:path';
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { installCrds, waitFor, type LocalCluster } from '@regatta/local-cluster';
import { apiserverMetric, cpuWindow, fmt, nowMs, summarize, table, type Summary } from './common.js';
import { CONTROL_PLANE, clusterPids } from './process-memory.js';
import { loopFigures, type LoopFigures } from './program-loop.js';
import { benchSupervisor, type Supervised } from './rollout-programs.js';
import { compareLatency, type LatencyComparison, SELECTED_ADDED_P99_GOAL_MS } from './sidecarset-figures.js';

export interface ScsLatencyCtx {
  cluster: LocalCluster;
  logsDir: string;
  /** Pods measured per phase (each baseline run, unselected, selected). */
  pods: number;
  /** Pods created before each phase's measured ones, not counted. */
  warmup: number;
  log: (line: string) => void;
}

export interface ScsLatencyPhase {
  name: string;
  /** Phases measured together (alternating pod by pod) share a group, and the admission figures below. */
  group: number;
  latencies: number[];
  summary: Summary;
  /** Pods whose create response carried the sidecar. */
  injected: number;
  /** Percent of one core used by work outside the benchmark's processes during the phase. */
  otherCpu: number;
  /** Percent of one core used by the watcher and the sidecarset program together during the phase (0 when off). */
  regattaCpu: number;
  /** The API server's own account over the phase (all its kinds together): mutating webhook calls and their mean
   * duration, ms; match-condition (CEL) evaluations and their mean duration, ms. */
  webhookCalls: number;
  webhookMeanMs: number;
  matchConditions: number;
  matchConditionMeanMs: number;
  /** The sidecarset program's event loop and collector over the phase (none without the program). */
  loop?: LoopFigures;
}

export interface ScsLatencyResult {
  pods: number;
  warmup: number;
  phases: ScsLatencyPhase[];
  /** Against the baseline with no Regatta process running. */
  comparison: LatencyComparison;
  /** Against the same processes running without webhooks: what the webhook alone adds (unselected: the pods created
   * alone, b'). */
  sameProcesses: LatencyComparison;
  restarts: number;
}

const NS = 'bench-scs-latency';
const LABEL = 'bench-sidecar';
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
const POD_WEBHOOK_CONFIGURATION = 'regatta-sidecarset-pods';

const pod = (name: string, selected: boolean): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: NS, labels: { app: 'bench-scs-latency', [LABEL]: selected ? 'yes' : 'no' } },
  spec: { containers: [{ name: 'main', image: 'nginx:1.27.3' }] },
});

export async function benchSidecarSetLatency(ctx: ScsLatencyCtx): Promise<ScsLatencyResult> {
  const { cluster, log, pods: n, warmup } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  await installCrds(kubeconfig, generateCrds());
  for (const name of ['regatta-system', NS])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  let seq = 0;
  /** One create, timed from the request to the response; whether the response has the sidecar. */
  const createOne = async (prefix: string, selected: boolean): Promise<{ ms: number; injected: boolean }> => {
    const body = pod(`${prefix}-${seq++}`, selected);
    const t0 = nowMs();
    const created = await client.create(body);
    const ms = nowMs() - t0;
    return { ms, injected: (created.spec?.containers ?? []).some((c) => c.name === 'sidecar') };
  };
  const phases: ScsLatencyPhase[] = [];
  const newSupervisor = () =>
    benchSupervisor({ cluster, logsDir: ctx.logsDir, log }, 'benchscs_', {
      REGATTA_SIDECARSET_REVISION_NAMESPACE: 'regatta-system',
    });
  let supervisor = newSupervisor();
  const pids = (): Record<string, number> => ({
    ...clusterPids(cluster, CONTROL_PLANE),
    'bench orchestrator': process.pid,
  });

  let groups = 0;
  /** Sum and count of a histogram on the API server's /metrics (every series matching `match`). */
  const histogram = async (name: string, match: Record<string, string>) => ({
    sum: (await apiserverMetric(client, `${name}_sum`, match)).sum,
    count: (await apiserverMetric(client, `${name}_count`, match)).sum,
  });
  const admission = async () => ({
    webhook: await histogram('apiserver_admission_webhook_admission_duration_seconds', {
      type: 'admit',
      operation: 'CREATE',
    }),
    match: await histogram('apiserver_admission_match_condition_evaluation_seconds', {}),
  });

  /** `n` measured creates of each kind after `warmup` unmeasured ones; the kinds alternate (reversed every other round). */
  const run = async (
    kinds: { name: string; selected: boolean }[],
    extraPids: Record<string, number>,
    program?: Supervised,
  ): Promise<ScsLatencyPhase[]> => {
    for (let i = 0; i < warmup; i++) for (const k of kinds) await createOne('warm', k.selected);
    const samples = kinds.map((k) => ({ ...k, latencies: [] as number[], injected: 0 }));
    const scrape = async () => (program ? (await fetch(`${program.health}/metrics`)).text() : '');
    const metrics0 = await scrape();
    const adm0 = await admission();
    const cpu = cpuWindow({ ...pids(), ...extraPids });
    for (let i = 0; i < n; i++) {
      for (const s of i % 2 === 0 ? samples : [...samples].reverse()) {
        const r = await createOne(s.name.replace(/\W+/g, '-'), s.selected);
        s.latencies.push(r.ms);
        if (r.injected) s.injected++;
      }
    }
    const used = cpu.end().percent;
    const loop = program ? loopFigures(metrics0, await scrape()) : undefined;
    const otherCpu = used['everything else'] ?? NaN;
    const regattaCpu = Object.keys(extraPids).reduce((sum, k) => sum + (used[k] ?? 0), 0);
    const adm1 = await admission();
    const calls = adm1.webhook.count - adm0.webhook.count;
    const evals = adm1.match.count - adm0.match.count;
    const server = {
      group: groups++,
      webhookCalls: calls,
      webhookMeanMs: calls > 0 ? (1000 * (adm1.webhook.sum - adm0.webhook.sum)) / calls : NaN,
      matchConditions: evals,
      matchConditionMeanMs: evals > 0 ? (1000 * (adm1.match.sum - adm0.match.sum)) / evals : NaN,
      ...(loop ? { loop } : {}),
    };
    return samples.map((s) => ({
      ...server,
      name: s.name,
      latencies: s.latencies,
      summary: summarize(s.latencies),
      injected: s.injected,
      otherCpu,
      regattaCpu,
    }));
  };

  try {
    log(`a. baseline: ${n} pods (after ${warmup} warm-up), no webhook`);
    phases.push(...(await run([{ name: 'baseline (before)', selected: true }], {})));

    const watcher = await supervisor.start('watcher', 'watcher', '/healthz');
    const program = await supervisor.start('sidecarset', 'sidecarset', '/readyz', { webhook: true });
    log('watcher and regatta-sidecarset up (webhooks served and registered)');
    const set = await client.create<KubeObject & { spec: unknown }>({
      ...SCS,
      metadata: { name: 'bench-latency' },
      spec: {
        selector: { matchLabels: { [LABEL]: 'yes' } },
        containers: [{ name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '999d'] }],
      },
    });
    const gen = set.metadata?.generation ?? 1;
    // observed = its pod webhook entry is in the API server's configuration (docs/adr/0037-…)
    await waitFor(
      'the SidecarSet to be observed (its pod webhook entry applied)',
      async () => {
        const s = await client.get<KubeObject & { status?: { observedGeneration?: number } }>({
          ...SCS,
          name: 'bench-latency',
        });
        return (s.status?.observedGeneration ?? 0) >= gen;
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    // and the API server's own configuration informer has it: a selected pod comes back injected
    await waitFor('a selected pod to be injected', async () => (await createOne('probe', true)).injected, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    log(`b/c. unselected and selected: ${n} pods each, alternating (after ${warmup} warm-up each)`);
    phases.push(
      ...(await run(
        [
          { name: 'unselected', selected: false },
          { name: 'selected', selected: true },
        ],
        {
          watcher: watcher.p.pid,
          'regatta-sidecarset': program.p.pid,
        },
        program,
      )),
    );

    // unselected pods with nothing else created in between: b above shares the machine with the work each selected
    // pod causes (the SidecarSet's reconcile and status write, the larger pod's events)
    log(`b'. unselected alone: ${n} pods`);
    phases.push(
      ...(await run(
        [{ name: 'unselected, alone', selected: false }],
        {
          watcher: watcher.p.pid,
          'regatta-sidecarset': program.p.pid,
        },
        program,
      )),
    );
    let restarts = supervisor.restarts.length;
    await supervisor.stopAll();
    const deleteConfigurations = async () => {
      for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
        const ref = { apiVersion: 'admissionregistration.k8s.io/v1', kind };
        for (const c of (await client.list(ref)).items) {
          const name = c.metadata?.name ?? '';
          if (name.startsWith('regatta-sidecarset')) await client.delete({ ...ref, name });
        }
      }
      // the API server's configuration informer drops the entries shortly after the delete; until then a selected
      // pod is refused (nobody answers the webhook), then it is created plain
      await waitFor(
        `the ${POD_WEBHOOK_CONFIGURATION} configuration to be gone from the API server's view`,
        async () => !((await createOne('probe', true).catch(() => undefined))?.injected ?? true),
        { timeoutMs: 60_000, intervalMs: 250 },
      );
    };
    await deleteConfigurations();

    // the same processes doing the same work (caches, the SidecarSet's reconciles), only the webhooks off
    // (REGATTA_WEBHOOK_ADDR unset: no server, no configuration): what the webhook alone costs
    supervisor = newSupervisor();
    const watcher2 = await supervisor.start('watcher-2', 'watcher', '/healthz');
    const program2 = await supervisor.start('sidecarset-2', 'sidecarset', '/readyz');
    log(`a2. watcher and regatta-sidecarset again, without webhooks: ${n} pods of each label, alternating`);
    phases.push(
      ...(await run(
        [
          { name: 'no webhook, program running: label no', selected: false },
          { name: 'no webhook, program running: label yes', selected: true },
        ],
        { watcher: watcher2.p.pid, 'regatta-sidecarset': program2.p.pid },
        program2,
      )),
    );
    restarts += supervisor.restarts.length;
    await supervisor.stopAll();
    await deleteConfigurations(); // none expected; a leftover would skew the last baseline

    log(`a'. baseline again: programs stopped, webhook configurations deleted`);
    phases.push(...(await run([{ name: 'baseline (after)', selected: true }], {})));

    const baseline = phases.filter((p) => p.name.startsWith('baseline')).flatMap((p) => p.latencies);
    const of = (name: string) => phases.find((p) => p.name === name)?.latencies ?? [];
    return {
      pods: n,
      warmup,
      phases,
      comparison: compareLatency(baseline, of('unselected'), of('selected')),
      sameProcesses: compareLatency(
        phases.filter((p) => p.name.startsWith('no webhook')).flatMap((p) => p.latencies),
        of('unselected, alone'),
        of('selected'),
      ),
      restarts,
    };
  } finally {
    await supervisor.stopAll();
    await client.close();
  }
}

/** The ratios and differences of b and c against one baseline, with the goals. */
function compared(title: string, base: string, c: LatencyComparison, unselected = 'unselected (b'): string {
  const x = (v: number) => `${fmt(v, 2)}×`;
  const goal = (ok: boolean) => (ok ? 'met' : 'MISSED');
  return table([
    [title, 'p50', 'p99', 'goal'],
    [
      `${unselected}/${base})`,
      x(c.unselectedRatio.p50),
      x(c.unselectedRatio.p99),
      `1.0× (p50 within 10 %): ${goal(c.unselectedGoalMet)}`,
    ],
    [`selected (c/${base})`, x(c.selectedRatio.p50), x(c.selectedRatio.p99), ''],
    [
      `selected − ${base} (ms)`,
      fmt(c.selectedAdded.p50),
      fmt(c.selectedAdded.p99),
      `p99 ≤ +${SELECTED_ADDED_P99_GOAL_MS} ms: ${goal(c.selectedGoalMet)}`,
    ],
  ]);
}

export function reportSidecarSetLatency(r: ScsLatencyResult): string {
  const c = r.comparison;
  const injected = (p: ScsLatencyPhase) => `${p.injected}/${p.latencies.length}`;
  return [
    `SidecarSet pod webhook: pod create-call latency (ms, client-side, request → response), ${r.pods} pods per ` +
      `phase created one at a time (${r.warmup} warm-up pods each, not counted); no scheduler, pods stay Pending`,
    '',
    table([
      [
        'phase',
        'p50',
        'p90',
        'p99',
        'max',
        'mean',
        'injected',
        'watcher + program (% core)',
        'other work (% core)',
      ],
      ...r.phases.map((p) => [
        p.name,
        fmt(p.summary.p50),
        fmt(p.summary.p90),
        fmt(p.summary.p99),
        fmt(p.summary.max),
        fmt(p.summary.mean),
        injected(p),
        fmt(p.regattaCpu, 0),
        fmt(p.otherCpu, 0),
      ]),
      [
        'baseline (pooled)',
        fmt(c.baseline.p50),
        fmt(c.baseline.p90),
        fmt(c.baseline.p99),
        fmt(c.baseline.max),
        fmt(c.baseline.mean),
        '',
        '',
        '',
      ],
    ]),
    '',
    compared('against no Regatta process (a, pooled)', 'a', r.comparison),
    '',
    compared(
      'against the same processes without webhooks (a2: what the webhook alone adds)',
      'a2',
      r.sameProcesses,
      "unselected alone (b'",
    ),
    '',
    "The API server's own account of the admission work (apiserver_admission_webhook_admission_duration_seconds,",
    'type admit, CREATE; apiserver_admission_match_condition_evaluation_seconds), over each measured phase:',
    '',
    table([
      ['phases', 'webhook calls', 'mean call (ms)', 'match-condition evaluations', 'mean evaluation (ms)'],
      ...[...new Set(r.phases.map((p) => p.group))].map((g) => {
        const ps = r.phases.filter((p) => p.group === g);
        const p = ps[0];
        return [
          ps.map((q) => q.name).join(' + '),
          p?.webhookCalls ?? 0,
          fmt(p?.webhookMeanMs ?? NaN, 2),
          p?.matchConditions ?? 0,
          fmt(p?.matchConditionMeanMs ?? NaN, 3),
        ];
      }),
    ]),
    '',
    "The sidecarset program's event loop (how late its timers ran: a webhook request arriving then waits as long)",
    'and garbage collections over each phase it ran in (its /metrics; delay resolution 10 ms, so p50 ≈ 10 is idle):',
    '',
    table([
      ['phases', 'delay p50', 'delay p99', 'delay max', 'collections', 'GC ms', 'GC > 1 ms', 'GC > 10 ms'],
      ...[...new Set(r.phases.map((p) => p.group))].flatMap((g) => {
        const ps = r.phases.filter((p) => p.group === g);
        const l = ps[0]?.loop;
        if (!l) return [];
        return [
          [
            ps.map((q) => q.name).join(' + '),
            fmt(l.delayP50Ms),
            fmt(l.delayP99Ms),
            fmt(l.delayMaxMs),
            l.gcCount,
            fmt(l.gcMs),
            l.gcOver1Ms,
            l.gcOver10Ms,
          ],
        ];
      }),
    ]),
    ...(r.restarts > 0
      ? ['', `the sidecarset program or the watcher EXITED ${r.restarts} time(s) (see the logs)`]
      : []),
    ...r.phases
      .filter((p) => p.otherCpu > 25)
      .map(
        (p) =>
          `note: during "${p.name}" work outside the benchmark used ${fmt(p.otherCpu, 0)} % of a core: the machine ` +
          'was shared, and its latencies are disturbed',
      ),
  ].join('\n');
}

/** Where benchmark 8a keeps its cluster (`<tmp>/sidecarset-latency`). */
export const sidecarSetLatencyDir = (dir: string) => join(dir, 'sidecarset-latency');
