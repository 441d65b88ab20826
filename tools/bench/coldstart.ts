// Benchmark 10 (issue 17, docs/benchmarks.md section 10): a cold start. N pods under M CloneSets run on simulated
// nodes; the watcher and the cloneset program are stopped, every CloneSet's spec changes (so each status is stale),
// and both programs start again on an empty bus (a new bus prefix: nothing mirrored yet). Measured: from starting
// them until every CloneSet's status is current again (coldstart-figures.ts), with what each client asked of the
// API server in that time (the audit log, reads included), the programs' CPU and peak memory. No pod may change.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, ListWatcher, type KubeObject } from '@regatta/kube';
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
import { benchSupervisor, type ProgramSupervisor } from './rollout-programs.js';
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
}

export interface ColdStartResult extends ColdStartConfig {
  nodes: number;
  /** Creating the CloneSets → every one current, with the programs running (not the measure), s. */
  setupS: number;
  /** Programs started → each answered its readiness probe, s. */
  readyS: Record<string, number>;
  /** Programs started → every CloneSet's status current; undefined when that did not happen in time. */
  currentS: number | undefined;
  timeoutS: number;
  /** Programs started → the first CloneSet current, s. */
  firstCurrentS: number | undefined;
  /** CPU seconds per program from its start until every status was current. */
  cpuS: Record<string, number>;
  /** VmHWM (peak resident set since its start) per program once every status was current, bytes. */
  rssPeak: Record<string, number>;
  /** Requests per client over start → current + 5 s. */
  requests: Map<string, RequestTally>;
  /** Pods whose uid or resourceVersion changed while the programs started (goal 0). */
  podsChanged: number;
  restarts: Restart[];
}

const NS = 'bench-coldstart';
const PROGRAMS = ['watcher', 'cloneset'] as const;

export async function benchColdStart(ctx: ColdStartCtx): Promise<ColdStartResult> {
  const { cluster, log } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  const sizes = replicasPerSet(ctx.pods, ctx.sets);
  const nodes = Math.max(3, Math.ceil((1.2 * ctx.pods) / MAX_PODS_PER_NODE));
  const timeoutS = Math.round(120 + ctx.pods / 20);
  await installCrds(kubeconfig, generateCrds());
  for (const d of ['first', 'second']) await mkdir(join(ctx.logsDir, d), { recursive: true });
  for (const name of ['regatta-system', NS])
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

  const sim = Child.start('node simulator', './rollout-simulator.ts');
  const supervisors: ProgramSupervisor[] = [];
  let watch: ListWatcher<KubeObject> | undefined;
  try {
    await sim.call('start', {
      kubeconfig,
      nodes,
      maxPods: MAX_PODS_PER_NODE,
      timings: { podStartMs: 1000, containerRestartMs: 1000, imagePullMs: 0 },
      logFile: join(ctx.logsDir, 'node-simulator.log'),
    });

    // the world: M CloneSets of N pods in all, made and kept by a first watcher and cloneset program
    const first = benchSupervisor({ cluster, logsDir: join(ctx.logsDir, 'first'), log }, 'benchcold1_');
    supervisors.push(first);
    for (const p of PROGRAMS) await first.start(p, p, p === 'watcher' ? '/healthz' : '/readyz');
    const s0 = nowMs();
    await inBatches(sizes, 20, (replicas, i) => client.create(cloneSet(i, replicas)));
    const allCurrent = async () => {
      const sets = (await client.list<CloneSetView & KubeObject>({ ...CLONESET_REF, namespace: NS })).items;
      return sets.length === sizes.length && sets.every(cloneSetCurrent);
    };
    await waitFor(`${ctx.sets} CloneSets with ${ctx.pods} ready pods`, allCurrent, {
      timeoutMs: timeoutS * 4 * 1000,
      intervalMs: 2000,
    });
    const setupS = (nowMs() - s0) / 1000;
    log(`${ctx.sets} CloneSets, ${ctx.pods} pods ready in ${setupS.toFixed(1)} s`);
    await first.stopAll();

    // every status stale: a spec change that touches no pod (the revision history limit)
    await inBatches(sizes, 20, (_, i) =>
      client.patch(
        { ...CLONESET_REF, namespace: NS, name: setName(i) },
        { spec: { revisionHistoryLimit: 9 } },
        { type: 'merge' },
      ),
    );
    const podsBefore = await podVersions(client);
    log(`programs stopped, every CloneSet's spec changed; starting them on an empty bus`);

    // the measure: both programs started at once, on a bus prefix nothing was mirrored under
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
    watch = new ListWatcher<KubeObject>(client, CLONESETS, {
      onList: async (items) => items.forEach(judge),
      onUpsert: async (o) => judge(o),
      onDelete: async () => undefined,
    });
    watch.start();
    await sleep(2000);
    const second = benchSupervisor({ cluster, logsDir: join(ctx.logsDir, 'second'), log }, 'benchcold2_');
    supervisors.push(second);
    const wall0 = Date.now();
    t0 = nowMs();
    const readyS: Record<string, number> = {};
    const started = await Promise.all(
      PROGRAMS.map(async (p) => {
        const s = await second.start(p, p, p === 'watcher' ? '/healthz' : '/readyz');
        readyS[p] = (nowMs() - t0) / 1000;
        return s;
      }),
    );
    const pids = Object.fromEntries(started.map((s) => [s.name, s.p.pid]));
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
        ? `not every CloneSet current after ${timeoutS} s (${[...current.values()].filter(Boolean).length})`
        : `every CloneSet current ${currentS.toFixed(1)} s after the start`,
    );
    await sleep(5000);
    const podsAfter = await podVersions(client);
    const podsChanged = [...podsBefore].filter(([k, v]) => podsAfter.get(k) !== v).length;
    const restarts = supervisors.flatMap((s) => s.restarts);
    await second.stopAll();
    const records = await readAudit(ctx.auditLog);
    const endWall = wall0 + ((doneAt ?? nowMs()) - t0) + 5000;
    return {
      pods: ctx.pods,
      sets: ctx.sets,
      nodes,
      setupS,
      readyS,
      currentS,
      timeoutS,
      firstCurrentS: firstAt === undefined ? undefined : (firstAt - t0) / 1000,
      cpuS,
      rssPeak,
      requests: requestsByClient(records, wall0, endWall),
      podsChanged,
      restarts,
    };
  } finally {
    for (const s of supervisors) await s.stopAll().catch(() => undefined);
    await watch?.stop();
    await sim.call('stop').catch(() => undefined);
    await sim.stop();
    await client.close();
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
