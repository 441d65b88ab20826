// `npm run bench [-- --quick] [-- --only=…] [-- …]` (every flag: `usage` in main-args.ts):
// Regatta's published figures (docs/benchmarks.md). Starts its own control plane and nats-server in a temp
// folder, the watcher app as a process, runs the benchmarks one after the other, prints every figure next to
// a baseline measured in the same run, and stops everything, also on error or Ctrl-C. Each rollout
// benchmark gets a cluster of its own (with kube-controller-manager, kube-scheduler and an audit log),
// started after the previous one has stopped. The programs run from their shipped bundles, built once at
// the start (`--sources`: from TypeScript sources under tsx). Nothing here is a timed assertion: the exit
// code is 0 unless something breaks.
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeClient } from '@regatta/kube';
import {
  appEntryPath,
  KUBERNETES_VERSION,
  LocalCluster,
  NATS_VERSION,
  startServingProgram,
} from '@regatta/local-cluster';
import {
  BENCHMARK_APPS,
  codeVersion,
  describeBundles,
  shippedEnv,
  stopAllChildren,
  useAppBundles,
  type AppBundles,
} from './common.js';
import { benchLatency, reportLatency } from './latency.js';
import { benchMemory, reportMemory } from './memory.js';
import { reportRolloutMemory } from './memory-rollout.js';
import type { Pod } from '@regatta/api';
import { captureRunningPod } from './pod-template.js';
import { benchAdsRollout } from './rollout-ads.js';
import { benchAstsRollout } from './rollout-asts.js';
import { benchBroadcastJob, reportBroadcastJob } from './broadcastjob.js';
import { benchDistribution, distributionDir, reportDistribution } from './distribution.js';
import {
  cloneSetRollout,
  isRolloutTypeArg,
  parseRolloutType,
  RolloutArgsError,
  type CloneSetRollout,
  type Ctx,
  type RolloutConfig,
  type RolloutResult,
} from './rollout-config.js';
import { benchRollout, reportRollout } from './rollout.js';
import { isPeerArg, parsePeerArgs, PeerArgsError, type PeerOptions } from './peer-config.js';
import { reportPeer } from './peer-report.js';
import { benchWatches, reportWatches } from './watches.js';
import { benchSidecarSetLatency, sidecarSetLatencyDir } from './sidecarset-latency.js';
import { reportSidecarSetLatency } from './sidecarset-latency-report.js';
import { benchSidecarSetUpgrade, reportSidecarSetUpgrade } from './sidecarset-upgrade.js';
import { benchImagePull } from './imagepull.js';
import { reportImagePull } from './imagepull-report.js';
import { benchColdStart } from './coldstart.js';
import { removeAllBut } from './kept-files.js';
import { reportColdStart } from './coldstart-report.js';
import { benchSidecarSetPolicyLatency, reportSidecarSetPolicyLatency } from './sidecarset-policy-latency.js';
import { benchBus, reportBus } from './bus.js';
import { BENCHMARKS, sizeArgOf, usage } from './main-args.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
/** Run the programs from their TypeScript sources under tsx instead of their bundles (a baseline for section 3). */
const fromSources = args.includes('--sources');
/** Keep the temp folder (logs, the rollout's audit log) after a successful run too. */
const keep = args.includes('--keep');
const onlyArg = args.find((a) => a.startsWith('--only='));
const sizeArg = (flag: string, min = 1): number | undefined => sizeArgOf(args, flag, min);
/** Benchmark 4's N when given (the default is 1000, 100 with --quick). */
const rolloutPods = sizeArg('--rollout-pods');
/** nats-servers of the rollout benchmarks' buses (`--bus-replicas=3`: a JetStream cluster, docs/adr/0086). */
const busReplicas = sizeArg('--bus-replicas') ?? 1;
/** Benchmarks 5's N (pods) and 6's N (nodes) when given (defaults below). */
const astsPods = sizeArg('--asts-pods');
const adsNodes = sizeArg('--ads-nodes');
/** Benchmark 8b's N when given (the default is 500, 50 with --quick). */
const scsPods = sizeArg('--sidecarset-pods');
/** Benchmark 8a's sidecarset program with these Node flags instead of tools/build/node-flags.mjs' (an A/B of flags). */
const scsNodeArgsArg = args.find((a) => a.startsWith('--sidecarset-node-args='));
const scsNodeArgs = scsNodeArgsArg?.slice('--sidecarset-node-args='.length);
/** Benchmark 8a with a pause before each measured create (a diagnostic: is the program idle when a call arrives?). */
const scsGapMs = sizeArg('--sidecarset-gap-ms');
/** Benchmark 9's N when given (the default is 50, 10 with --quick). */
const ipNodes = sizeArg('--imagepull-nodes');
/** Benchmark 10's N when given (the default is 10 000, 1 000 with --quick); M = N / 10 CloneSets. */
const coldPods = sizeArg('--coldstart-pods', 10);
/** Benchmark 4's CloneSet update strategy type (`--rollout-type`, InPlaceIfPossible by default; rollout-config.ts). */
let rolloutHow: CloneSetRollout;
try {
  rolloutHow = cloneSetRollout(parseRolloutType(args));
} catch (err) {
  if (!(err instanceof RolloutArgsError)) throw err;
  console.error(`${err.message}; ${usage}`);
  process.exit(2);
}
/** `--peer=kruise`: benchmarks 4, 5 and 6 run their CloneSet, Advanced StatefulSet and Advanced DaemonSet a third
 * time with kruise-manager, benchmark 10 starts it cold too (peer-config.ts). */
let peer: PeerOptions | undefined;
try {
  peer = parsePeerArgs(args);
} catch (err) {
  if (!(err instanceof PeerArgsError)) throw err;
  console.error(`${err.message}; ${usage}`);
  process.exit(2);
}
const only = new Set(onlyArg ? onlyArg.slice('--only='.length).split(',') : BENCHMARKS);
for (const a of args) {
  if (
    a !== '--quick' &&
    a !== '--keep' &&
    a !== '--sources' &&
    !a.startsWith('--only=') &&
    !a.startsWith('--rollout-pods=') &&
    !a.startsWith('--bus-replicas=') &&
    !a.startsWith('--asts-pods=') &&
    !a.startsWith('--ads-nodes=') &&
    !a.startsWith('--sidecarset-pods=') &&
    !a.startsWith('--imagepull-nodes=') &&
    !a.startsWith('--coldstart-pods=') &&
    !a.startsWith('--sidecarset-node-args=') &&
    !a.startsWith('--sidecarset-gap-ms=') &&
    !isRolloutTypeArg(a) &&
    !isPeerArg(a)
  ) {
    console.error(`unknown argument ${a}; ${usage}`);
    process.exit(2);
  }
}
if (args.some(isRolloutTypeArg) && !only.has('rollout')) {
  console.error(`--rollout-type is benchmark 4's (--only=rollout); ${usage}`);
  process.exit(2);
}
const PEER_BENCHMARKS = ['rollout', 'asts-rollout', 'ads-rollout', 'coldstart'];
if (peer && !PEER_BENCHMARKS.some((b) => only.has(b))) {
  console.error(
    `--peer=kruise runs with a rollout or the cold start benchmark (--only=${PEER_BENCHMARKS}); ${usage}`,
  );
  process.exit(2);
}
for (const b of only) {
  if (!BENCHMARKS.includes(b)) {
    console.error(`unknown benchmark ${b}; ${usage}`);
    process.exit(2);
  }
}

const config = quick
  ? { counts: [1, 3], rates: [100, 1000], warmMs: 1000, measureMs: 2000, configMaps: 50, pods: 1000 }
  : { counts: [1, 3, 7], rates: [100, 1000], warmMs: 3000, measureMs: 15_000, configMaps: 200, pods: 10_000 };
/** Benchmark 4: N pods, t ms for a container to be ready after an in-place restart or a pod start. */
const rolloutConfig = {
  ...(quick ? { replicas: 100, restartMs: 2000 } : { replicas: 1000, restartMs: 5000 }),
  ...(rolloutPods === undefined ? {} : { replicas: rolloutPods }),
};
/** Benchmark 5: N pods; t is shorter than benchmark 4's since the native StatefulSet's bound is N·t. */
const astsConfig = {
  ...(quick ? { replicas: 30, restartMs: 1000 } : { replicas: 300, restartMs: 2000 }),
  ...(astsPods === undefined ? {} : { replicas: astsPods }),
};
/** Benchmark 6: N simulated nodes (one daemon pod each). */
const adsConfig = {
  ...(quick ? { replicas: 10, restartMs: 2000 } : { replicas: 50, restartMs: 5000 }),
  ...(adsNodes === undefined ? {} : { replicas: adsNodes }),
};
/** Benchmark 7: N namespaces a ConfigMap is distributed to. */
const distributionNamespaces = quick ? 100 : 1000;
/** Benchmark 8a: pods created per phase, one at a time, after unmeasured warm-up ones. */
const scsLatencyConfig = {
  ...(quick ? { pods: 50, warmup: 10 } : { pods: 300, warmup: 20 }),
  ...(scsNodeArgs === undefined ? {} : { programNodeArgs: scsNodeArgs }),
  ...(scsGapMs === undefined ? {} : { gapMs: scsGapMs }),
};
/** Benchmark 8b: N pods whose sidecar is upgraded in place, t as benchmark 4's. */
const scsUpgradeConfig = { replicas: scsPods ?? (quick ? 50 : 500), restartMs: quick ? 2000 : 5000 };
/** Benchmark 11: 50 nodes, parallelism 10, t = 10 s per pod (quick: 20 nodes, 5 s). */
const broadcastJobConfig = { nodes: quick ? 20 : 50, parallelism: 10, runMs: quick ? 5000 : 10_000 };
/** Benchmark 9: an ImagePullJob over N simulated nodes (one agent process each), parallelism 10, t per pull. */
const imagePullConfig = { nodes: ipNodes ?? (quick ? 10 : 50), parallelism: 10, pullMs: quick ? 2000 : 5000 };
/** Benchmark 10: N pods under N / 10 CloneSets, started cold. */
const coldN = coldPods ?? (quick ? 1000 : 10_000);
const coldStartConfig = { pods: coldN, sets: Math.floor(coldN / 10) };
/** Benchmark 12: puts per bus setup (one server or three, each fsync setting). */
const busPuts = quick ? 300 : 1000;

const t0 = Date.now();
const log = (line: string) =>
  console.log(`  [${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const section = (title: string) => console.log(`\n== ${title} (load average ${load()})`);

const dir = await mkdtemp(join(tmpdir(), 'regatta-bench-'));
// the programs run as they ship (common.ts useAppBundles): built once, before anything starts
let bundles: AppBundles;
try {
  bundles = useAppBundles(dir, [...new Set([...only].flatMap((b) => BENCHMARK_APPS[b] ?? []))], {
    sources: fromSources,
  });
} catch (err) {
  console.error('benchmark failed:', err);
  await rm(dir, { recursive: true, force: true });
  process.exit(1);
}
console.log(
  `Regatta benchmarks${quick ? ' (--quick)' : ''}: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ` +
    `${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, kube-apiserver ${KUBERNETES_VERSION}, ` +
    `nats-server ${NATS_VERSION}; code ${codeVersion()}, ${describeBundles(bundles)}`,
);

/** Folders a successful run keeps (the rest of `dir` is removed): the cold start's process logs. */
const keptAfterRun: string[] = [];
/** Every cluster started (the shared one, the rollout's); cleanup stops them all. */
const clusters: LocalCluster[] = [];
let failed = false;
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    await stopAllChildren().catch(() => undefined);
    for (const c of clusters.reverse()) await c.stop().catch(() => undefined);
    if (failed || keep) console.log(`logs kept in ${dir} (logs/, <rollout>/logs/, <rollout>/audit.log)`);
    else {
      await removeAllBut(dir, keptAfterRun).catch(() => undefined);
      for (const k of keptAfterRun) console.log(`kept: ${k}`);
    }
  })());
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (cleaning) return; // a second signal (terminal and bench.mjs both send one) changes nothing
    console.error(`\n${sig}: stopping the cluster`);
    failed = true;
    void cleanup().finally(() => process.exit(130));
  });
}

const reports: string[] = [];
try {
  if (only.has('watches') || only.has('latency') || only.has('memory')) await busBenchmarks();
  if (only.has('rollout'))
    await rolloutBenchmark(
      `4. rollout of ${rolloutConfig.replicas} pods, CloneSet ${rolloutHow.how} vs Deployment`,
      'rollout',
      rolloutConfig,
      (ctx) => benchRollout(ctx, rolloutHow),
      peer,
    );
  if (only.has('asts-rollout'))
    await rolloutBenchmark(
      `5. rollout of ${astsConfig.replicas} pods, Advanced StatefulSet in place vs StatefulSet`,
      'asts-rollout',
      astsConfig,
      benchAstsRollout,
      peer,
    );
  if (only.has('ads-rollout'))
    await rolloutBenchmark(
      `6. rollout over ${adsConfig.replicas} nodes, Advanced DaemonSet in place vs DaemonSet`,
      'ads-rollout',
      adsConfig,
      benchAdsRollout,
      peer,
    );
  if (only.has('distribution')) await distributionBenchmark();
  if (only.has('sidecarset-latency')) await sidecarSetLatencyBenchmark();
  if (only.has('sidecarset-policy')) await sidecarSetPolicyBenchmark();
  if (only.has('sidecarset-upgrade')) await sidecarSetUpgradeBenchmark();
  if (only.has('imagepull')) await imagePullBenchmark();
  if (only.has('coldstart')) await coldStartBenchmark();
  if (only.has('broadcastjob')) await broadcastJobBenchmark();
  if (only.has('bus')) await busWriteBenchmark();

  section(`results (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  console.log(reports.join('\n\n'));
} catch (err) {
  if (!cleaning) {
    // (after Ctrl-C the interrupted step's error is expected and not worth printing)
    failed = true;
    console.error('\nbenchmark failed:', err);
    process.exitCode = 1;
  }
} finally {
  await cleanup();
}

/**
 * Runs one benchmark on a control plane of its own in `d`, stopped at the end. `controllers` adds
 * kube-controller-manager and kube-scheduler (for pods); the API server writes an audit log (`<d>/audit.log`, writes
 * only) unless `audit` is false.
 */
async function onOwnCluster<R>(
  d: string,
  o: { controllers: boolean; audit?: boolean; auditReads?: boolean },
  run: (c: { cluster: LocalCluster; auditLog: string; logsDir: string }) => Promise<R>,
): Promise<R> {
  const auditLog = join(d, 'audit.log');
  const cluster = await LocalCluster.start({
    dir: d,
    jaeger: false,
    busReplicas,
    ...(o.controllers ? {} : { controllerManager: false, scheduler: false }),
    ...(o.audit === false ? {} : { auditLogPath: auditLog, auditReads: o.auditReads ?? false }),
    log,
  });
  clusters.push(cluster);
  const r = await run({ cluster, auditLog, logsDir: join(d, 'logs') });
  await cluster.stop();
  return r;
}

/** A rollout benchmark on a cluster of its own (+ kube-controller-manager, kube-scheduler, an audit log), in
 * `<tmp>/<folder>`. */
async function rolloutBenchmark(
  title: string,
  folder: string,
  cfg: RolloutConfig,
  bench: (ctx: Ctx) => Promise<RolloutResult>,
  peerOptions?: PeerOptions,
): Promise<void> {
  section(`${title} (own control plane: + kube-controller-manager, kube-scheduler, audit log)`);
  const r = await onOwnCluster(join(dir, folder), { controllers: true }, (c) =>
    bench({ ...cfg, ...c, log, ...(peerOptions ? { peer: peerOptions } : {}) }),
  );
  reports.push(reportRollout(r), reportRolloutMemory(r), ...(r.peer ? [reportPeer(r)] : []));
}

/** Benchmark 7 on a cluster of its own (API server, etcd, nats-server, an audit log). */
async function distributionBenchmark(): Promise<void> {
  section(`7. ResourceDistribution to ${distributionNamespaces} namespaces (own control plane, audit log)`);
  const r = await onOwnCluster(distributionDir(dir), { controllers: false }, (c) =>
    benchDistribution({ ...c, namespaces: distributionNamespaces, log }),
  );
  reports.push(reportDistribution(r));
}

/** Benchmark 8a on a cluster of its own (API server, etcd, nats-server; no scheduler, no nodes). */
async function sidecarSetLatencyBenchmark(): Promise<void> {
  section(
    `8a. pod creation with the SidecarSet webhook: ${scsLatencyConfig.pods} pods per phase (own control plane)`,
  );
  const r = await onOwnCluster(sidecarSetLatencyDir(dir), { controllers: false, audit: false }, (c) =>
    benchSidecarSetLatency({ cluster: c.cluster, logsDir: c.logsDir, ...scsLatencyConfig, log }),
  );
  reports.push(reportSidecarSetLatency(r));
}

/** Benchmark 8c on a cluster of its own: injection by MutatingAdmissionPolicy against the webhook (docs/adr/0089). */
async function sidecarSetPolicyBenchmark(): Promise<void> {
  const pods = quick ? 50 : 300;
  section(`8c. pod creation, sidecar by MutatingAdmissionPolicy vs webhook: ${pods} pods each (own control plane)`);
  const r = await onOwnCluster(join(dir, 'sidecarset-policy'), { controllers: false, audit: false }, (c) =>
    benchSidecarSetPolicyLatency({ cluster: c.cluster, logsDir: c.logsDir, pods, warmup: quick ? 5 : 20, log }),
  );
  reports.push(reportSidecarSetPolicyLatency(r));
}

/** Benchmark 8b on a cluster of its own (+ kube-controller-manager, kube-scheduler, an audit log). */
async function sidecarSetUpgradeBenchmark(): Promise<void> {
  section(
    `8b. sidecar upgrade of ${scsUpgradeConfig.replicas} pods (own control plane: + kube-controller-manager, kube-scheduler, audit log)`,
  );
  const r = await onOwnCluster(join(dir, 'sidecarset-upgrade'), { controllers: true }, (c) =>
    benchSidecarSetUpgrade({ ...scsUpgradeConfig, ...c, log }),
  );
  reports.push(reportSidecarSetUpgrade(r));
}

/** Benchmark 9 on a cluster of its own (API server, etcd, nats-server, an audit log; no scheduler: no pods). */
async function imagePullBenchmark(): Promise<void> {
  section(
    `9. ImagePullJob over ${imagePullConfig.nodes} nodes, parallelism ${imagePullConfig.parallelism}, ` +
      `one agent process per node (own control plane, audit log)`,
  );
  const d = join(dir, 'imagepull');
  const r = await onOwnCluster(d, { controllers: false }, (c) =>
    benchImagePull({ ...imagePullConfig, cluster: c.cluster, auditLog: c.auditLog, dir: d, log }),
  );
  reports.push(reportImagePull(r));
}

/** Benchmark 11 on a cluster of its own (+ kube-controller-manager, kube-scheduler; no audit log). */
async function broadcastJobBenchmark(): Promise<void> {
  const { nodes, parallelism, runMs } = broadcastJobConfig;
  section(`11. BroadcastJob over ${nodes} simulated nodes, parallelism ${parallelism}, t = ${runMs / 1000} s (own control plane)`);
  const r = await onOwnCluster(join(dir, 'broadcastjob'), { controllers: true, audit: false }, (c) =>
    benchBroadcastJob({ ...broadcastJobConfig, cluster: c.cluster, logsDir: c.logsDir, log }),
  );
  reports.push(reportBroadcastJob(r));
}

/** Benchmark 12: nats-servers of its own (no control plane), one after the other. */
async function busWriteBenchmark(): Promise<void> {
  section(`12. the bus's write cost: 1 or 3 nats-servers, default or always fsync, ${busPuts} puts each`);
  reports.push(reportBus(await benchBus(join(dir, 'bus'), busPuts, log), busPuts));
}

/** Benchmark 10 on a cluster of its own (+ kube-controller-manager, kube-scheduler, an audit log with reads). */
async function coldStartBenchmark(): Promise<void> {
  const { pods, sets } = coldStartConfig;
  section(`10. cold start: ${pods} pods under ${sets} CloneSets (own control plane, audit log with reads)`);
  // the programs' logs, set-up included, outlive the run: a lease lost while building the world can be read
  keptAfterRun.push(join(dir, 'coldstart', 'logs'));
  const r = await onOwnCluster(join(dir, 'coldstart'), { controllers: true, auditReads: true }, (c) =>
    benchColdStart({ ...coldStartConfig, ...c, log, ...(peer ? { peer } : {}) }),
  );
  reports.push(reportColdStart(r));
}

/** Benchmarks 1–3 on one cluster without kube-controller-manager and kube-scheduler (stopped at the end). */
async function busBenchmarks(): Promise<void> {
  section('control plane');
  const cluster = await LocalCluster.start({
    dir,
    jaeger: false,
    controllerManager: false,
    scheduler: false,
    log,
  });
  clusters.push(cluster);
  const { kubeconfig, nats } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig);

  let template: Pod | undefined;
  if (only.has('memory')) {
    section('template pod (node simulator)');
    template = await captureRunningPod(kubeconfig, log);
  }

  if (only.has('watches') || only.has('latency')) {
    section('watcher');
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'regatta-system' } });
    const env: NodeJS.ProcessEnv = {
      KUBECONFIG: kubeconfig,
      NATS_URL: nats!,
      REGATTA_BUS_PREFIX: 'bench_',
      REGATTA_LEASE_NAMESPACE: 'regatta-system',
      POD_NAME: 'bench-watcher',
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      // the benchmarks' stand-in controllers (docs/adr/0009: the watcher mirrors only what it allows)
      REGATTA_MIRROR_ALLOW: 'bench=pods.v1;bench-latency=configmaps.v1',
    };
    // on port 0: the watcher reports the address it got (docs/adr/0015)
    const watcher = await startServingProgram({
      name: 'watcher',
      entry: appEntryPath('watcher'),
      logFile: join(dir, 'logs', 'watcher.log'),
      env: { ...env, ...shippedEnv() },
      probe: '/healthz',
      timeoutMs: 60_000,
    });
    await cluster.adopt(watcher.process);
    log('watcher up');
    const busCtx = { client, kubeconfig, nats: nats!, prefix: 'bench_', log };
    const natsMonitor = cluster.endpoints.natsMonitor!;

    if (only.has('watches')) {
      section('1. API watches on pods: 1…N controllers through Regatta vs direct informers');
      const r = await benchWatches({ ...busCtx, natsMonitor, counts: config.counts });
      reports.push(reportWatches(r));
    }
    if (only.has('latency')) {
      section('2. write → cache latency: Regatta vs a direct informer');
      const c = cluster;
      const r = await benchLatency({ ...busCtx, ...config, processes: () => c.processRecords });
      reports.push(reportLatency(r));
    }
    await watcher.process.stop();
  }

  if (only.has('memory') && template) {
    section(`3. memory per cached pod (${config.pods} pods)`);
    const workDir = join(dir, 'memory');
    await mkdir(workDir, { recursive: true });
    const r = await benchMemory({
      nats: nats!,
      prefix: 'benchmem_',
      dir: workDir,
      template,
      count: config.pods,
      log,
    });
    reports.push(reportMemory(r));
  }
  await client.close();
  await cluster.stop();
}
