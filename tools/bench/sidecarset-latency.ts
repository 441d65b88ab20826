// Benchmark 8a (issue 12): what the SidecarSet pod webhook costs a pod creation. On a cluster of its own (API
// server, etcd, nats-server; no scheduler, no nodes: pods stay Pending, only the create call is measured), N pods
// created one at a time (one request in flight, so the figure is the request's own latency, not queueing) in
// three phases of the same run:
//   a. baseline: no sidecarset program, no webhook configuration;
//   b. unselected: the watcher and the sidecarset program running (webhooks served and registered), one
//      SidecarSet selecting `bench-sidecar=yes`; pods without that label;
//   c. selected: pods with the label (injected with one sidecar).
// and further phases (b', a2 with the injected pod created as such) described in docs/benchmarks-sidecarset.md section 8a.
// b and c alternate pod by pod, so both see the same machine; the baseline is measured before the program starts
// and again after it stopped and its configurations were removed, and both runs are pooled (the load of a shared
// machine drifts). Latency is client-side, from sending the POST to its response. Nothing is a timed assertion.
import { join } from 'node:path';
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { installCrds, waitFor, type LocalCluster } from '@regatta/local-cluster';
import { cpuWindow, metricSum, nowMs, sleep, summarize, type Summary } from './common.js';
import { histogramDelta, type HistogramDelta } from './histogram-delta.js';
import { CONTROL_PLANE, clusterPids } from './process-memory.js';
import { loopFigures, type LoopFigures } from './program-loop.js';
import { benchSupervisor, type Supervised } from './rollout-programs.js';
import { compareLatency, type LatencyComparison } from './sidecarset-figures.js';

export interface ScsLatencyCtx {
  cluster: LocalCluster;
  logsDir: string;
  /** Pods measured per phase (each baseline run, unselected, selected). */
  pods: number;
  /** Pods created before each phase's measured ones, not counted. */
  warmup: number;
  log: (line: string) => void;
  /** The sidecarset program's Node flags instead of the run's (REGATTA_NODE_ARGS; bundles only): an A/B of flags. */
  programNodeArgs?: string;
  /** A pause before each measured create, every phase (a diagnostic: the program idle when a call arrives). */
  gapMs?: number;
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
  /** The API server's webhook calls (type admit, CREATE) over the phase, with its buckets. */
  webhookHistogram: HistogramDelta;
  /** The program's webhook server over the phase: TLS connections it accepted, and its requests' times. */
  serverConnections?: number;
  serverConnectionsSinceStart?: number;
  serverLatency?: HistogramDelta;
  /** Mean size of the created pods as the API server answered them (JSON, without managedFields), bytes. */
  podBytes: number;
  /** Mean size of their metadata.managedFields (JSON), bytes. */
  managedFieldsBytes: number;
  /** For a kind created from a given pod: the distinct specs the API server stored (one: the webhook's). */
  storedSpecs?: string[];
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
  /** The selected pods' added time split: the injected pod created as such with no webhook (a2's third kind) against
   * a2's plain selected-label pods (the larger pod), and the selected pods against it (the webhook call). */
  split: { largerPod: { p50: number; p99: number }; webhookCall: { p50: number; p99: number } };
  /** The sidecarset program's Node flags when not the run's. */
  programNodeArgs?: string;
  gapMs?: number;
  restarts: number;
}

const NS = 'bench-scs-latency';
const LABEL = 'bench-sidecar';
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
const POD_WEBHOOK_CONFIGURATION = 'regatta-sidecarset-pods';

/** a2's third kind: the pod the webhook produced (a selected pod as the API server stored it), created as such. */
export const INJECTED_AS_CREATED = 'no webhook, program running: injected pod as created';

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
  const createOne = async (
    prefix: string,
    selected: boolean,
    make: (name: string) => Pod = (name) => pod(name, selected),
  ): Promise<{ ms: number; injected: boolean; bytes: number; fieldsBytes: number; created: Pod }> => {
    const body = make(`${prefix}-${seq++}`);
    const t0 = nowMs();
    const created = await client.create(body);
    const ms = nowMs() - t0;
    const injected = (created.spec?.containers ?? []).some((c) => c.name === 'sidecar');
    const { managedFields, ...metadata } = created.metadata ?? {};
    return {
      ms,
      injected,
      bytes: JSON.stringify({ ...created, metadata }).length,
      fieldsBytes: JSON.stringify(managedFields ?? []).length,
      created,
    };
  };
  const phases: ScsLatencyPhase[] = [];
  const programEnv =
    ctx.programNodeArgs === undefined ? {} : { env: { REGATTA_NODE_ARGS: ctx.programNodeArgs } };
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
  const apiserverMetrics = async () =>
    String(await client.request<string>('GET', '/metrics', { timeoutMs: 20_000 }));

  /** `n` measured creates of each kind after `warmup` unmeasured ones; the kinds alternate (reversed every other round). */
  const run = async (
    kinds: { name: string; selected: boolean; make?: (name: string) => Pod }[],
    extraPids: Record<string, number>,
    program?: Supervised,
  ): Promise<ScsLatencyPhase[]> => {
    for (let i = 0; i < warmup; i++) for (const k of kinds) await createOne('warm', k.selected, k.make);
    const samples = kinds.map((k) => ({
      ...k,
      latencies: [] as number[],
      injected: 0,
      bytes: 0,
      fieldsBytes: 0,
      specs: new Set<string>(),
    }));
    const scrape = async () => (program ? (await fetch(`${program.health}/metrics`)).text() : '');
    const metrics0 = await scrape();
    const adm0 = await apiserverMetrics();
    const cpu = cpuWindow({ ...pids(), ...extraPids });
    for (let i = 0; i < n; i++) {
      for (const s of i % 2 === 0 ? samples : [...samples].reverse()) {
        if (ctx.gapMs) await sleep(ctx.gapMs);
        // names of one length (the phase's first 12 characters and a number): equal pods but for what is measured
        const r = await createOne(s.name.replace(/\W+/g, '-').slice(0, 12), s.selected, s.make);
        s.latencies.push(r.ms);
        s.bytes += r.bytes;
        s.fieldsBytes += r.fieldsBytes;
        if (s.make) s.specs.add(JSON.stringify(r.created.spec));
        if (r.injected) s.injected++;
      }
    }
    const used = cpu.end().percent;
    const metrics1 = await scrape();
    const loop = program ? loopFigures(metrics0, metrics1) : undefined;
    const otherCpu = used['everything else'] ?? NaN;
    const regattaCpu = Object.keys(extraPids).reduce((sum, k) => sum + (used[k] ?? 0), 0);
    const adm1 = await apiserverMetrics();
    const webhook = histogramDelta(adm0, adm1, 'apiserver_admission_webhook_admission_duration_seconds', {
      type: 'admit',
      operation: 'CREATE',
    });
    const match = histogramDelta(adm0, adm1, 'apiserver_admission_match_condition_evaluation_seconds');
    const connections = 'regatta_webhook_tls_connections_total';
    const server = {
      group: groups++,
      webhookCalls: webhook.count,
      webhookMeanMs: webhook.count > 0 ? (1000 * webhook.sum) / webhook.count : NaN,
      webhookHistogram: webhook,
      matchConditions: match.count,
      matchConditionMeanMs: match.count > 0 ? (1000 * match.sum) / match.count : NaN,
      ...(loop ? { loop } : {}),
      ...(program && metricSum(metrics1, connections).samples.length > 0
        ? {
            serverConnections: metricSum(metrics1, connections).sum - metricSum(metrics0, connections).sum,
            serverConnectionsSinceStart: metricSum(metrics1, connections).sum,
            serverLatency: histogramDelta(metrics0, metrics1, 'controller_runtime_webhook_latency_seconds'),
          }
        : {}),
    };
    return samples.map((s) => ({
      ...server,
      name: s.name,
      latencies: s.latencies,
      summary: summarize(s.latencies),
      injected: s.injected,
      podBytes: s.bytes / Math.max(1, s.latencies.length),
      managedFieldsBytes: s.fieldsBytes / Math.max(1, s.latencies.length),
      ...(s.make ? { storedSpecs: [...s.specs] } : {}),
      otherCpu,
      regattaCpu,
    }));
  };

  try {
    log(`a. baseline: ${n} pods (after ${warmup} warm-up), no webhook`);
    phases.push(...(await run([{ name: 'baseline (before)', selected: true }], {})));

    const watcher = await supervisor.start('watcher', 'watcher', '/healthz');
    const program = await supervisor.start('sidecarset', 'sidecarset', '/readyz', {
      webhook: true,
      ...programEnv,
    });
    log('watcher and regatta-sidecarset up (webhooks served and registered)');
    const set = await client.create<KubeObject & { spec: unknown }>({
      ...SCS,
      metadata: { name: 'bench-latency' },
      spec: {
        selector: { matchLabels: { [LABEL]: 'yes' } },
        // shareVolumePolicy keeps it on the webhook this benchmark measures (the pods have no mounts to share); a
        // SidecarSet without it is injected by a MutatingAdmissionPolicy instead (benchmark 8c, docs/adr/0089)
        containers: [
          { name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '999d'], shareVolumePolicy: { type: 'enabled' } },
        ],
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
    // and the API server's own configuration informer has it: a selected pod comes back injected; kept, as the pod
    // the webhook produces, for a2's third kind
    let injectedPod: Pod | undefined;
    await waitFor(
      'a selected pod to be injected',
      async () => {
        const r = await createOne('probe', true);
        if (r.injected) injectedPod = r.created;
        return r.injected;
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const asInjected = asCreated(injectedPod);
    const webhookSpec = JSON.stringify(injectedPod?.spec);
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
    const program2 = await supervisor.start('sidecarset-2', 'sidecarset', '/readyz', programEnv);
    log(
      `a2. watcher and regatta-sidecarset again, without webhooks: ${n} pods of each label and ${n} injected pods ` +
        'created as such, alternating',
    );
    phases.push(
      ...(await run(
        [
          { name: 'no webhook, program running: label no', selected: false },
          { name: 'no webhook, program running: label yes', selected: true },
          { name: INJECTED_AS_CREATED, selected: true, make: asInjected },
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
    const at = (name: string) => summarize(of(name));
    const stored = phases.find((p) => p.name === INJECTED_AS_CREATED)?.storedSpecs ?? [];
    if (stored.length !== 1 || stored[0] !== webhookSpec)
      log(
        `WARNING: the injected pods created as such were stored with ${stored.length} spec(s) not the webhook's`,
      );
    const minus = (a: Summary, b: Summary) => ({ p50: a.p50 - b.p50, p99: a.p99 - b.p99 });
    return {
      pods: n,
      warmup,
      phases,
      comparison: compareLatency(baseline, of('unselected'), of('selected')),
      sameProcesses: compareLatency(
        // a2 as defined before the injected kind joined its group: the two labels
        phases
          .filter((p) => p.name.startsWith('no webhook') && p.name !== INJECTED_AS_CREATED)
          .flatMap((p) => p.latencies),
        of('unselected, alone'),
        of('selected'),
      ),
      split: {
        largerPod: minus(at(INJECTED_AS_CREATED), at('no webhook, program running: label yes')),
        webhookCall: minus(at('selected'), at(INJECTED_AS_CREATED)),
      },
      ...(ctx.programNodeArgs === undefined ? {} : { programNodeArgs: ctx.programNodeArgs }),
      ...(ctx.gapMs ? { gapMs: ctx.gapMs } : {}),
      restarts,
    };
  } finally {
    await supervisor.stopAll();
    await client.close();
  }
}

/**
 * A pod as `created` was stored (labels, annotations, spec: the webhook's patch applied to the API server's defaults),
 * to be created again under another name with no webhook registered: what a larger pod alone costs.
 */
function asCreated(created: Pod | undefined): (name: string) => Pod {
  if (!created) throw new Error('no injected pod was seen');
  const { labels, annotations } = created.metadata ?? {};
  const spec = created.spec ?? { containers: [] };
  return (name) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, ...(labels && { labels }), ...(annotations && { annotations }) },
    spec,
  });
}

/** Where benchmark 8a keeps its cluster (`<tmp>/sidecarset-latency`). */
export const sidecarSetLatencyDir = (dir: string) => join(dir, 'sidecarset-latency');
