// Benchmark 9 (issue 15): an ImagePullJob over N simulated nodes (default 50), parallelism 10, a fixed simulated pull
// time t. On a cluster of its own (API server, etcd, nats-server, an audit log of writes; no kube-controller-manager,
// no scheduler: nothing here needs them), the node simulator in a child process serving each node's CRI
// ImageService on a unix socket, the watcher and the imagepull program (its webhooks served and registered), and one
// imagepull-agent per node, one process each, as the sandbox starts them — all three from their shipped bundles
// (tools/build/build.mjs, built into the run's folder unless REGATTA_APP_BUNDLES names a build folder).
// Figures: job created → status.completionTime against ceil(N/p)·t (imagepull-figures.ts); the API server's WATCH
// gauge before and after the agents started (they should add none: they read their NodeImage from the bus); the
// agents' RSS; their NodeImage status writes from the audit log (docs/adr/0041-node-image-status-rate-limit.md).
import { spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateCrds, IMAGE_PULL_JOB_API_VERSION } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import {
  appEntryPath,
  installCrds,
  startServingProgram,
  type LocalCluster,
  type ManagedProcess,
} from '@regatta/local-cluster';
import { apiserverMetric, Child, cpuWindow, nowMs, shippedEnv, sleep } from './common.js';
import { pullBoundS } from './imagepull-figures.js';
import { readAgentWrites, type AgentWrites } from './imagepull-audit.js';
import { CONTROL_PLANE, clusterPids, procSmapsBytes, procStatusBytes, rssSampler } from './process-memory.js';

export interface ImagePullConfig {
  nodes: number;
  parallelism: number;
  pullMs: number;
}

export interface ImagePullCtx extends ImagePullConfig {
  cluster: LocalCluster;
  auditLog: string;
  dir: string;
  log: (line: string) => void;
}

export interface ImagePullResult extends ImagePullConfig {
  boundS: number;
  /** Job created → first seen with status.completionTime, s (undefined: not done before the timeout). */
  durationS: number | undefined;
  timeoutS: number;
  /** Seconds from creation at which `succeeded` was first seen at k (index k-1). */
  succeededAtS: number[];
  finalStatus: string;
  /** WATCH requests the API server serves (all resources): before the agents, with them idle, most during the job. */
  watches: { before: number; agentsIdle: number; duringJobMax: number };
  /** Per agent, bytes: resident when idle, largest sample during the job, peak since start (VmHWM). */
  agentRss: { idle: number[]; job: number[]; hwm: number[]; idlePss: number[]; idlePrivate: number[] };
  /** RSS of the other programs at the end of the job, bytes. */
  otherRss: Record<string, number>;
  /** CPU seconds during the job: the agents together, and each other process. */
  cpuS: Record<string, number>;
  agentWrites: AgentWrites;
  agentsStartS: number;
  agentExits: number;
  bundles: string;
}

const NS = 'bench-imagepull';
const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: 'ImagePullJob' } as const;
const NODEIMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const IMAGE = 'nginx:1.25';
/** Agents started at once (each is a Node process reading a bundle: the start is CPU-bound on two cores). */
const START_BATCH = 10;
const root = fileURLToPath(new URL('../../', import.meta.url));

interface JobStatus {
  desired?: number;
  active?: number;
  succeeded?: number;
  failed?: number;
  completionTime?: string;
  message?: string;
}

/** The bundles of `apps` (REGATTA_APP_BUNDLES when set, else built now into `<dir>/bundles`) and their folder. */
function bundles(dir: string, apps: string[]): string {
  const given = process.env['REGATTA_APP_BUNDLES'];
  if (given) return resolve(root, given);
  const out = join(dir, 'bundles');
  const r = spawnSync(process.execPath, [join(root, 'tools/build/build.mjs'), ...apps, `--out-dir=${out}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`building the bundles of ${apps.join(', ')} failed (exit ${r.status})`);
  return out;
}

const watchGauge = async (client: KubeClient) =>
  (await apiserverMetric(client, 'apiserver_longrunning_requests', { verb: 'WATCH' })).sum;

/** The gauge once it has held one value for `stableMs` (watches open asynchronously), bounded by `timeoutMs`. */
async function settledWatches(client: KubeClient, stableMs = 3000, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = await watchGauge(client);
  let since = Date.now();
  while (Date.now() < deadline && Date.now() - since < stableMs) {
    await sleep(500);
    const v = await watchGauge(client);
    if (v !== value) [value, since] = [v, Date.now()];
  }
  return value;
}

export async function benchImagePull(ctx: ImagePullCtx): Promise<ImagePullResult> {
  const { cluster, log, nodes: n, parallelism: p, pullMs: t } = ctx;
  const { kubeconfig, nats } = cluster.endpoints;
  const boundS = pullBoundS(n, p, t);
  const timeoutS = Math.round(4 * boundS + 120);
  const logsDir = join(ctx.dir, 'logs');
  await mkdir(logsDir, { recursive: true });
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  await installCrds(kubeconfig, generateCrds());
  for (const name of ['regatta-system', NS])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  const b0 = Date.now();
  const bundleDir = bundles(ctx.dir, ['watcher', 'imagepull', 'imagepull-agent']);
  log(
    `bundles of watcher, imagepull, imagepull-agent in ${bundleDir} (${((Date.now() - b0) / 1000).toFixed(1)} s)`,
  );
  const entry = (app: string) => appEntryPath(app, { REGATTA_APP_BUNDLES: bundleDir });

  const env: NodeJS.ProcessEnv = {
    KUBECONFIG: kubeconfig,
    NATS_URL: nats ?? '',
    REGATTA_BUS_PREFIX: 'benchip_',
    REGATTA_LEASE_NAMESPACE: 'regatta-system',
    LOG_LEVEL: 'warn',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
  };
  const sim = Child.start('node simulator', './imagepull-simulator.ts');
  const started: ManagedProcess[] = [];
  const agents: { node: string; p: ManagedProcess }[] = [];
  const start = async (name: string, app: string, extra: NodeJS.ProcessEnv, webhook = false) => {
    const s = await startServingProgram({
      name,
      entry: entry(app),
      logFile: join(logsDir, `${name}.log`),
      env: { ...env, ...shippedEnv(), ...extra },
      probe: '/readyz',
      webhook,
      timeoutMs: 120_000,
    });
    await cluster.adopt(s.process);
    started.push(s.process);
    return s.process;
  };
  try {
    const simNodes = (
      await sim.call<{ nodes: { name: string; criSocket: string }[] }>('start', {
        kubeconfig,
        nodes: n,
        pullMs: t,
        criSocketDir: join(ctx.dir, 'cri'),
        logFile: join(logsDir, 'node-simulator.log'),
      })
    ).nodes;
    log(`node simulator: ${n} nodes, each serving its CRI ImageService; pull time t = ${t} ms`);
    const watcher = await start('watcher', 'watcher', { POD_NAME: 'bench-watcher' });
    const program = await start(
      'imagepull',
      'imagepull',
      // a NodeImage for each node 1 s after it appears, not 30 s: set-up only
      { POD_NAME: 'bench-imagepull', REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '1' },
      true,
    );
    log('watcher and regatta-imagepull up (webhooks served and registered)');
    const nodeImages = async () =>
      (await client.list(NODEIMAGE)).items.filter((o) => o.metadata?.name?.startsWith('bench-node-')).length;
    for (let waited = 0; (await nodeImages()) < n; waited += 500) {
      if (waited > 120_000) throw new Error(`only ${await nodeImages()}/${n} NodeImages after 2 min`);
      await sleep(500);
    }
    log(`${n} NodeImages created`);

    const before = await settledWatches(client);
    log(`WATCH requests on the API server before the agents: ${before}`);
    const a0 = nowMs();
    for (let i = 0; i < simNodes.length; i += START_BATCH) {
      const batch = simNodes.slice(i, i + START_BATCH);
      const ps = await Promise.all(
        batch.map((node) =>
          start(`imagepull-agent-${node.name}`, 'imagepull-agent', {
            NODE_NAME: node.name,
            CRI_SOCKET: node.criSocket,
          }),
        ),
      );
      ps.forEach((proc, k) => agents.push({ node: batch[k]?.name ?? '', p: proc }));
    }
    const agentsStartS = (nowMs() - a0) / 1000;
    log(`${agents.length} image pull agents ready in ${agentsStartS.toFixed(1)} s (one process per node)`);
    await sleep(5000); // let start-up garbage settle before the idle figures
    const agentsIdle = await settledWatches(client);
    const idleRss = agents.map((a) => procStatusBytes(a.p.pid, 'VmRSS'));
    const idlePss = agents.map((a) => procSmapsBytes(a.p.pid, 'Pss'));
    const idlePrivate = agents.map((a) => procSmapsBytes(a.p.pid, 'Private'));
    log(`WATCH requests with the agents idle: ${agentsIdle} (${agentsIdle - before} more)`);

    const others: Record<string, number> = {
      'regatta-imagepull': program.pid,
      watcher: watcher.pid,
      ...clusterPids(cluster, CONTROL_PLANE),
      'node simulator': sim.pid,
      'bench orchestrator': process.pid,
    };
    const agentPids = Object.fromEntries(agents.map((a) => [a.node, a.p.pid]));
    const rss = rssSampler(agentPids);
    const cpu = cpuWindow({ ...agentPids, ...others });
    let duringJobMax = agentsIdle;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        duringJobMax = Math.max(duringJobMax, await watchGauge(client).catch(() => 0));
        await sleep(2000);
      }
    })();

    const fromMs = Date.now();
    const s0 = nowMs();
    await client.create({
      ...JOB,
      metadata: { namespace: NS, name: 'warm' },
      spec: {
        image: IMAGE,
        selector: { names: simNodes.map((x) => x.name) },
        parallelism: p,
        completionPolicy: { type: 'Always' },
      },
    });
    log(`ImagePullJob created: ${IMAGE} on ${n} nodes, parallelism ${p}; bound ceil(N/p)·t = ${boundS} s`);
    const succeededAtS: number[] = [];
    let status: JobStatus | undefined;
    let durationS: number | undefined;
    let lastLog = 0;
    while ((nowMs() - s0) / 1000 < timeoutS) {
      status = (
        await client.get<KubeObject & { status?: JobStatus }>({ ...JOB, namespace: NS, name: 'warm' })
      ).status;
      const at = (nowMs() - s0) / 1000;
      while (succeededAtS.length < (status?.succeeded ?? 0)) succeededAtS.push(at);
      if (status?.completionTime) {
        durationS = at;
        break;
      }
      if (at - lastLog >= 15) {
        lastLog = at;
        log(`${at.toFixed(0)} s: active ${status?.active ?? 0}, succeeded ${status?.succeeded ?? 0}/${n}`);
      }
      await sleep(250);
    }
    const doneMs = Date.now();
    const cpuWin = cpu.end();
    const jobRss = rss.end();
    sampling = false;
    await sampler;
    log(
      durationS === undefined
        ? `not done in ${timeoutS} s: ${JSON.stringify(status)}`
        : `done in ${durationS.toFixed(1)} s (${(durationS / boundS).toFixed(2)} × the bound)`,
    );
    let agentsCpu = 0;
    const cpuS: Record<string, number> = {};
    for (const [k, pct] of Object.entries(cpuWin.percent)) {
      const secs = (pct * cpuWin.elapsedS) / 100;
      if (k in agentPids) agentsCpu += Number.isFinite(secs) ? secs : 0;
      else cpuS[k] = secs;
    }
    cpuS['agents (all)'] = agentsCpu;
    const hwm = agents.map((a) => procStatusBytes(a.p.pid, 'VmHWM'));
    const otherRss = Object.fromEntries(
      Object.entries(others).map(([k, v]) => [k, procStatusBytes(v, 'VmRSS')]),
    );
    const agentExits = agents.filter((a) => !a.p.running).length;
    for (const s of [...started].reverse()) await s.stop();
    await sleep(1000); // the audit log is written as responses complete; let the last lines land
    return {
      nodes: n,
      parallelism: p,
      pullMs: t,
      boundS,
      durationS,
      timeoutS,
      succeededAtS,
      finalStatus: JSON.stringify(status ?? {}),
      watches: { before, agentsIdle, duringJobMax },
      agentRss: { idle: idleRss, job: agents.map((a) => jobRss[a.node] ?? NaN), hwm, idlePss, idlePrivate },
      otherRss,
      cpuS,
      agentWrites: await readAgentWrites(ctx.auditLog, { fromMs, toMs: doneMs }),
      agentsStartS,
      agentExits,
      bundles: process.env['REGATTA_APP_BUNDLES'] ? bundleDir : 'built for the run',
    };
  } finally {
    for (const s of [...started].reverse()) await s.stop().catch(() => undefined);
    await sim.call('stop').catch(() => undefined);
    await sim.stop();
    await client.close();
  }
}
