// Benchmark 10 (issue 17, docs/benchmarks-coldstart.md section 10): a cold start. N pods under M CloneSets run on simulated
// nodes; the watcher and the cloneset program are stopped, every CloneSet's spec changes (so each status is stale),
// and both programs start again on an empty bus (a new bus prefix: nothing mirrored yet). Measured: from starting
// them until every CloneSet's status is current again (coldstart-figures.ts), with what each client asked of the
// API server in that time (the audit log, reads included), the programs' CPU and peak memory. No pod may change.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, ListWatcher, NotFoundError, type KubeObject } from '@regatta/kube';
import { installCrds, waitFor, type LocalCluster } from '@regatta/local-cluster';
import { Child, cpuSeconds, nowMs, sleep } from './common.js';
import {
  cloneSetCurrent,
  replicasPerSet,
  requestsByClient,
  type CloneSetView,
  type RequestTally,
} from './coldstart-figures.js';
import { procStatusBytes } from './process-memory.js';
import { readAudit } from './rollout-audit.js';
import { IMAGE_OLD, MAX_PODS_PER_NODE, benchPodSpec, type Restart } from './rollout-config.js';
import { benchSupervisor } from './rollout-programs.js';
import { startKruiseManager } from './kruise-peer.js';
import { KRUISE_NAMESPACE, describeLimits, setupLimits, type PeerOptions } from './peer-config.js';
import { CLONESETS, PODS } from './rollout-watch.js';

export interface ColdStartConfig {
  /** N pods, spread over M CloneSets. */
  pods: number;
  sets: number;
}

export interface ColdStartCtx extends ColdStartConfig {
  cluster: LocalCluster;
  /** The API server's audit log, reads included (`auditReads`). */
  auditLog: string;
  logsDir: string;
  log: (line: string) => void;
  /** `--peer=kruise`: the same start measured again with kruise-manager as the controller (kruise-peer.ts). */
  peer?: PeerOptions;
}

/** What one controller's cold start measured. */
export interface ColdStartSide {
  /** `Regatta`, `kruise-manager 1.9.1 (30/50)`. */
  name: string;
  /** The audit log's clients that are this side's controller (rollout-audit.ts `clientOf`). */
  clients: string[];
  /** Creating the CloneSets → every one current, with the controller running (not the measure), s. */
  setupS: number;
  /** Controller started → each process ready (probe; kruise-manager: its CloneSet workers started), s. */
  readyS: Record<string, number>;
  /** Controller started → every CloneSet's status current; undefined when that did not happen in time. */
  currentS: number | undefined;
  /** Controller started → the first CloneSet current, s. */
  firstCurrentS: number | undefined;
  /** CPU seconds per process from its start until every status was current. */
  cpuS: Record<string, number>;
  /** VmHWM (peak resident set since its start) per process once every status was current, bytes. */
  rssPeak: Record<string, number>;
  /** Requests per client over start → current + 5 s. */
  requests: Map<string, RequestTally>;
  /** Pods whose uid or resourceVersion changed while the controller started (goal 0). */
  podsChanged: number;
  restarts: Restart[];
  /** The client limits each phase ran with (kruise-manager's; Regatta's programs have none). */
  limits?: PhaseLimits;
}

/** How the set-up (not measured) and the measured start were run, as the report prints them. */
export interface PhaseLimits {
  setup: string;
  start: string;
}

export interface ColdStartResult extends ColdStartConfig {
  nodes: number;
  timeoutS: number;
  regatta: ColdStartSide;
  peer?: ColdStartSide;
}

/** A controller the benchmark starts twice: once to make the world, once cold (the measure). */
interface Controller {
  name: string;
  clients: string[];
  limits?: PhaseLimits;
  /** `setup` builds the world (not measured), `start` is the measured cold start. */
  start(phase: Phase): Promise<Started>;
}
type Phase = 'setup' | 'start';
interface Started {
  pids: Record<string, number>;
  readyS: Record<string, number>;
  restarts(): Restart[];
  stop(): Promise<void>;
}

const NS = 'bench-coldstart';
const PROGRAMS = ['watcher', 'cloneset'] as const;

export async function benchColdStart(ctx: ColdStartCtx): Promise<ColdStartResult> {
  const { kubeconfig } = ctx.cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  const nodes = Math.max(3, Math.ceil((1.2 * ctx.pods) / MAX_PODS_PER_NODE));
  const timeoutS = Math.round(120 + ctx.pods / 20);
  await installCrds(kubeconfig, generateCrds());
  for (const name of ['regatta-system', NS])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  const sim = Child.start('node simulator', './rollout-simulator.ts');
  try {
    await sim.call('start', {
      kubeconfig,
      nodes,
      maxPods: MAX_PODS_PER_NODE,
      timings: { podStartMs: 1000, containerRestartMs: 1000, imagePullMs: 0 },
      logFile: join(ctx.logsDir, 'node-simulator.log'),
    });
    const regatta = await measureSide(ctx, client, timeoutS, regattaController(ctx));
    if (!ctx.peer) return { pods: ctx.pods, sets: ctx.sets, nodes, timeoutS, regatta };
    // kruise-manager makes its own world (its own revisions) on a cluster without Regatta's CloneSets
    const sets = await client.list({ ...CLONESET_REF, namespace: NS });
    for (const cs of sets.items)
      await client.delete(
        { ...CLONESET_REF, namespace: NS, name: cs.metadata?.name ?? '' },
        { propagationPolicy: 'Background' },
      );
    await waitFor(
      `the pods of ${NS} to be gone`,
      async () => (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: NS })).items.length === 0,
      { timeoutMs: 600_000, intervalMs: 2000 },
    );
    const peer = await measureSide(ctx, client, timeoutS, kruiseController(ctx, ctx.peer));
    return { pods: ctx.pods, sets: ctx.sets, nodes, timeoutS, regatta, peer };
  } finally {
    await sim.call('stop').catch(() => undefined);
    await sim.stop();
    await client.close();
  }
}

/** Regatta: the watcher and the cloneset program, each start on a bus prefix of its own (an empty bus). */
function regattaController(ctx: ColdStartCtx): Controller {
  return {
    name: 'Regatta',
    clients: PROGRAMS.map((p) => `regatta-${p}`),
    async start(phase) {
      // kept after the run (main.ts): a set-up that lost a lease can be read afterwards
      const logsDir = join(ctx.logsDir, `regatta-${phase}`);
      await mkdir(logsDir, { recursive: true });
      const sup = benchSupervisor({ cluster: ctx.cluster, logsDir, log: ctx.log }, `benchcold${phase}_`);
      const t0 = nowMs();
      const readyS: Record<string, number> = {};
      const started = await Promise.all(
        PROGRAMS.map(async (p) => {
          const s = await sup.start(p, p, p === 'watcher' ? '/healthz' : '/readyz');
          readyS[p] = (nowMs() - t0) / 1000;
          return s;
        }),
      );
      return {
        pids: Object.fromEntries(started.map((s) => [s.name, s.p.pid])),
        readyS,
        restarts: () => sup.restarts,
        stop: () => sup.stopAll(),
      };
    },
  };
}

/** kruise-manager (kruise-peer.ts): its CRDs and webhooks installed at the first start only. */
function kruiseController(ctx: ColdStartCtx, o: PeerOptions): Controller {
  const setup = setupLimits(o);
  return {
    name: `kruise-manager (${o.qps}/${o.burst})`,
    clients: ['kruise-manager'],
    limits: { setup: describeLimits(setup), start: describeLimits(o) },
    async start(phase) {
      const limits = phase === 'setup' ? setup : o;
      // kruise-manager does not give its Lease up when stopped (no ReleaseOnCancel in upstream main.go): a new
      // instance would wait out the old one's 15 s. Deleted here, so both sides start with no lease held.
      if (phase === 'start') {
        const client = KubeClient.fromKubeconfigFile(ctx.cluster.endpoints.kubeconfig, {
          userAgent: 'regatta-bench',
        });
        await client
          .delete({
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            namespace: KRUISE_NAMESPACE,
            name: 'kruise-manager',
          })
          .catch((err: unknown) => {
            if (!(err instanceof NotFoundError)) throw err;
          })
          .finally(() => client.close());
      }
      const kp = await startKruiseManager({
        kubeconfig: ctx.cluster.endpoints.kubeconfig,
        dir: join(ctx.logsDir, `kruise-manager-${phase}`),
        qps: limits.qps,
        burst: limits.burst,
        log: ctx.log,
        cluster: ctx.cluster,
        keepCrds: phase === 'start',
      });
      return {
        pids: { 'kruise-manager': kp.pid },
        readyS: { 'kruise-manager': kp.readyMs / 1000 },
        restarts: () => [],
        stop: () => kp.stop(),
      };
    },
  };
}

/**
 * One side: the controller makes the world (M CloneSets, N ready pods) and is stopped; every CloneSet's spec changes
 * (no pod is touched, every status goes stale); the controller starts again, cold, and is measured until every
 * status is current.
 */
async function measureSide(
  ctx: ColdStartCtx,
  client: KubeClient,
  timeoutS: number,
  controller: Controller,
): Promise<ColdStartSide> {
  const { log } = ctx;
  const sizes = replicasPerSet(ctx.pods, ctx.sets);
  const first = await controller.start('setup');
  if (controller.limits) log(`${controller.name}: set-up with ${controller.limits.setup}`);
  const s0 = nowMs();
  await inBatches(sizes, 20, (replicas, i) => client.create(cloneSet(i, replicas)));
  const allCurrent = async () => {
    const sets = (await client.list<CloneSetView & KubeObject>({ ...CLONESET_REF, namespace: NS })).items;
    return sets.length === sizes.length && sets.every(cloneSetCurrent);
  };
  await waitFor(`${controller.name}: ${ctx.sets} CloneSets with ${ctx.pods} ready pods`, allCurrent, {
    timeoutMs: timeoutS * 4 * 1000,
    intervalMs: 2000,
  });
  const setupS = (nowMs() - s0) / 1000;
  log(`${controller.name}: ${ctx.sets} CloneSets, ${ctx.pods} pods ready in ${setupS.toFixed(1)} s`);
  const setupRestarts = first.restarts();
  await first.stop();

  // every status stale: a spec change that touches no pod (the revision history limit)
  await inBatches(sizes, 20, (_, i) =>
    client.patch(
      { ...CLONESET_REF, namespace: NS, name: setName(i) },
      { spec: { revisionHistoryLimit: 9 } },
      { type: 'merge' },
    ),
  );
  const podsBefore = await podVersions(client);
  log(
    `${controller.name} stopped, every CloneSet's spec changed; starting it cold` +
      (controller.limits ? ` with ${controller.limits.start}` : ''),
  );

  const current = new Map<string, boolean>();
  let doneAt: number | undefined;
  let firstAt: number | undefined;
  let t0 = 0;
  const judge = (o: KubeObject) => {
    current.set(o.metadata?.name ?? '', cloneSetCurrent(o as CloneSetView));
    const n = [...current.values()].filter(Boolean).length;
    if (t0 > 0 && n > 0) firstAt ??= nowMs();
    if (t0 > 0 && n === sizes.length) doneAt ??= nowMs();
  };
  const watch = new ListWatcher<KubeObject>(client, CLONESETS, {
    onList: async (items) => items.forEach(judge),
    onUpsert: async (o) => judge(o),
    onDelete: async () => undefined,
  });
  watch.start();
  let second: Started | undefined;
  try {
    await sleep(2000);
    const wall0 = Date.now();
    t0 = nowMs();
    second = await controller.start('start');
    const { pids } = second;
    const deadline = t0 + timeoutS * 1000;
    while (doneAt === undefined && nowMs() < deadline) await sleep(200);
    // the processes are new: what they used so far is what the start cost (CPU, and VmHWM: their peak RSS)
    const cpuS = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuSeconds(pid)]));
    const rssPeak = Object.fromEntries(
      Object.entries(pids).map(([n, pid]) => [n, procStatusBytes(pid, 'VmHWM')]),
    );
    const currentS = doneAt === undefined ? undefined : (doneAt - t0) / 1000;
    log(
      currentS === undefined
        ? `${controller.name}: not every CloneSet current after ${timeoutS} s (${[...current.values()].filter(Boolean).length})`
        : `${controller.name}: every CloneSet current ${currentS.toFixed(1)} s after the start`,
    );
    await sleep(5000);
    const podsAfter = await podVersions(client);
    const restarts = [...setupRestarts, ...second.restarts()];
    await second.stop();
    await sleep(1000); // the audit log is written as responses complete
    const records = await readAudit(ctx.auditLog);
    return {
      name: controller.name,
      clients: controller.clients,
      setupS,
      readyS: second.readyS,
      currentS,
      firstCurrentS: firstAt === undefined ? undefined : (firstAt - t0) / 1000,
      cpuS,
      rssPeak,
      requests: requestsByClient(records, wall0, wall0 + ((doneAt ?? nowMs()) - t0) + 5000),
      podsChanged: [...podsBefore].filter(([k, v]) => podsAfter.get(k) !== v).length,
      restarts,
      ...(controller.limits ? { limits: controller.limits } : {}),
    };
  } finally {
    await second?.stop().catch(() => undefined);
    await watch.stop();
  }
}

const CLONESET_REF = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const setName = (i: number) => `cs-${String(i).padStart(4, '0')}`;

/** CloneSet i, as its mutating webhook would leave it (no webhook runs here). */
function cloneSet(i: number, replicas: number): KubeObject {
  const app = setName(i);
  return {
    ...CLONESET_REF,
    metadata: { name: app, namespace: NS },
    spec: {
      replicas,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app } }, spec: benchPodSpec(IMAGE_OLD) },
      updateStrategy: { type: 'ReCreate', maxUnavailable: '20%', maxSurge: 0, partition: 0 },
      scaleStrategy: {},
    },
  } as KubeObject;
}

/** Each pod's uid and resourceVersion, to see that the start changed none. */
async function podVersions(client: KubeClient): Promise<Map<string, string>> {
  const pods = await client.listAll<Pod>({ apiVersion: 'v1', kind: PODS.kind, namespace: NS });
  return new Map(
    pods.items.map((p) => [p.metadata?.name ?? '', `${p.metadata?.uid}/${p.metadata?.resourceVersion}`]),
  );
}

/** Runs `f` over `xs`, `width` at a time. */
async function inBatches<T>(xs: T[], width: number, f: (x: T, i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < xs.length; i += width)
    await Promise.all(xs.slice(i, i + width).map((x, j) => f(x, i + j)));
}
