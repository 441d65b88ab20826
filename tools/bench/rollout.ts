// Benchmark 4: an image change rolled out over N pods, by a CloneSet in place (Regatta's cloneset
// controller, InPlaceIfPossible) and by a native Deployment (kube-controller-manager, RollingUpdate:
// pods recreated), in the same cluster and the same run, with the same disruption budget
// (maxUnavailable 10 %) and the same simulated time t for a container to start (new pod) or restart
// (in place). Measured: duration from the image patch to done, against the bound ceil(N/batch)·t; the
// controllers' API writes per pod (from the API server's audit log, by user agent); the controllers'
// CPU seconds and peak memory; the largest number of pods unavailable at once.
import { readFileSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { defaultCloneSet, generateCrds, type CloneSet } from '@regatta/api';
import { KubeClient, ListWatcher, type KubeObject, type WatchedResource } from '@regatta/kube';
import {
  appEntryPath,
  freePorts,
  installCrds,
  startProgram,
  waitFor,
  type LocalCluster,
  type ManagedProcess,
} from '@regatta/local-cluster';
import { Child, cpuWindow, fmt, nowMs, ratio, sleep, summarize, table } from './common.js';

export interface RolloutConfig {
  /** N: pods of the CloneSet and of the Deployment. */
  replicas: number;
  /** t: how long a restarted container (in place) or a new pod's containers take to be ready, ms. */
  restartMs: number;
}

interface Ctx extends RolloutConfig {
  cluster: LocalCluster;
  /** The API server's audit log (the cluster was started with `auditLogPath`). */
  auditLog: string;
  logsDir: string;
  log: (line: string) => void;
}

const MAX_UNAVAILABLE = '10%';
const IMAGE_OLD = 'nginx:1.27.3';
const IMAGE_NEW = 'nginx:1.27.4';
const MAX_PODS_PER_NODE = 110;
/** Writes made this long after "done" are still counted (and shown apart): stragglers belong to the rollout. */
const TAIL_MS = 5_000;

const CLONESETS: WatchedResource = {
  group: 'apps.kruise.io',
  version: 'v1alpha1',
  kind: 'CloneSet',
  plural: 'clonesets',
};
const DEPLOYMENTS: WatchedResource = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
};
const PODS: WatchedResource = { group: '', version: 'v1', kind: 'Pod', plural: 'pods' };

interface Pod extends KubeObject {
  spec?: { containers?: { name: string; image: string }[] };
  status?: {
    conditions?: { type: string; status: string }[];
    containerStatuses?: { name: string; image: string; ready: boolean; restartCount: number }[];
  };
}
interface CloneSetObj extends KubeObject {
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    updatedReplicas?: number;
    updatedReadyReplicas?: number;
    updateRevision?: string;
    currentRevision?: string;
  };
}
interface DeploymentObj extends KubeObject {
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    updatedReplicas?: number;
  };
}

/** At most this many restarts of the watcher and the cloneset program together. */
const MAX_RESTARTS = 5;

/** A Regatta program that exited while the benchmark ran, and was started again. */
export interface Restart {
  name: string;
  phase: string;
  atMs: number;
  code: number | null;
  reason: string;
}

/** The last error a program logged (pino JSON lines): its message and its error's message. */
function lastError(logFile: string): string {
  try {
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!lines[i]?.includes('"level":"error"') && !lines[i]?.includes('"level":"fatal"')) continue;
      const e = JSON.parse(lines[i] ?? '{}') as { msg?: string; err?: { message?: string } };
      return [e.msg, e.err?.message].filter(Boolean).join(': ');
    }
  } catch {
    // no log, or not JSON: say so below
  }
  return 'no error logged';
}

/** What one side of the comparison measured. */
export interface PhaseResult {
  name: string;
  /** N pods from the workload's creation to all ready, s. */
  setupS: number;
  /** Image patch → the workload's status says done, s; undefined when it did not finish in time. */
  durationS: number | undefined;
  timeoutS: number;
  /** Image patch → the last pod seen new and Ready (the pods' own view), s. */
  podsDoneS: number | undefined;
  /** When each pod was first seen at the new image and Ready, s after the patch, ascending. */
  podDoneS: number[];
  /** The most pods unavailable (not Ready, or being deleted, or missing) at any event during the rollout. */
  maxUnavailable: number;
  /** The workload's status when done (or at the timeout). */
  finalStatus: string;
  /** Wall-clock window whose audited writes belong to the rollout: the patch → done + TAIL_MS. */
  window: { fromMs: number; doneMs: number; toMs: number };
  /** CPU seconds per process over patch → done. */
  cpuS: Record<string, number>;
  /** Largest VmRSS sampled every 250 ms over patch → done, bytes. */
  rssPeak: Record<string, number>;
  /** VmHWM (peak resident set since the process started) at the end of the rollout, bytes. */
  hwm: Record<string, number>;
  /** VmRSS before the workload was created (controllers started, caches synced, nothing to do), bytes. */
  idleRss: Record<string, number>;
  notes: string[];
}

export interface WriteTally {
  /** `resource[/subresource] verb` → count. */
  byKind: Map<string, number>;
  /** Writes on pods (any subresource). */
  podWrites: number;
  /** All writes (any resource). */
  all: number;
  /** Of `all`, answered with an error status (409 conflicts, …). */
  failed: number;
  /** Of `all`, made after the workload was done (within TAIL_MS). */
  afterDone: number;
  /** Writes on the most-written pod, and how many distinct pods were written (creates by generateName excluded). */
  maxPerPod: number;
  podsWritten: number;
  /** Pod writes before done: most in flight at once, API latency p50 (ms), and the share of patch → done
   * during which at least one was in flight (1 with strictly serial writes and nothing else to wait for). */
  podConcurrency: number;
  podLatencyP50: number;
  podBusyShare: number;
}

export interface RolloutResult extends RolloutConfig {
  batch: number;
  boundS: number;
  nodes: number;
  cloneSet: PhaseResult;
  deployment: PhaseResult;
  /** Regatta programs that exited and were started again (none in a healthy run). */
  restarts: Restart[];
  /** client → tally, per phase, over the phase's window. */
  writes: { cloneSet: Map<string, WriteTally>; deployment: Map<string, WriteTally> };
}

// ---- measuring helpers ---------------------------------------------------------------------------

/** Follows one object by watch; `until` resolves at the event (nowMs) that satisfies a predicate. */
class Follower<T extends KubeObject> {
  latest: T | undefined;
  private readonly waiters = new Set<{ pred: (o: T) => boolean; resolve: (at: number) => void }>();
  private readonly lw: ListWatcher<T>;

  constructor(client: KubeClient, resource: WatchedResource, ns: string, name: string) {
    const mine = (o: T) => o.metadata?.namespace === ns && o.metadata?.name === name;
    this.lw = new ListWatcher<T>(client, resource, {
      onList: async (objs) => {
        const o = objs.find(mine);
        if (o) this.seen(o);
      },
      onUpsert: async (o) => {
        if (mine(o)) this.seen(o);
      },
      onDelete: async () => undefined,
    });
    this.lw.start();
  }

  private seen(o: T): void {
    this.latest = o;
    const at = nowMs();
    for (const w of this.waiters) {
      if (w.pred(o)) {
        this.waiters.delete(w);
        w.resolve(at);
      }
    }
  }

  /** nowMs() of the first event (or the current state) satisfying `pred`; undefined after `timeoutMs`. */
  until(pred: (o: T) => boolean, timeoutMs: number): Promise<number | undefined> {
    if (this.latest && pred(this.latest)) return Promise.resolve(nowMs());
    return new Promise((resolve) => {
      const w = {
        pred,
        resolve: (at: number) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(w);
        resolve(undefined);
      }, timeoutMs);
      this.waiters.add(w);
    });
  }

  stop(): Promise<void> {
    return this.lw.stop();
  }
}

/**
 * The pods of one namespace as a watch reports them: how many are available (Ready, not being
 * deleted), the most unavailable at once since `begin`, and when each first ran the new image and was
 * Ready.
 */
class PodTracker {
  private readonly pods = new Map<string, { available: boolean; done: boolean }>();
  private available = 0;
  private t0: number | undefined;
  private relisting = false;
  private readonly doneSeen = new Set<string>();
  readonly doneAt: number[] = [];
  maxUnavailable = 0;

  constructor(
    readonly ns: string,
    readonly replicas: number,
  ) {}

  get count(): number {
    return this.pods.size;
  }
  get availableCount(): number {
    return this.available;
  }
  get doneCount(): number {
    return this.doneSeen.size;
  }

  begin(): void {
    this.t0 = nowMs();
    this.maxUnavailable = this.replicas - this.available;
  }

  /** A (re)list: the whole truth at once (the watch relists every 10 min), not a sequence of changes. */
  reset(pods: Pod[]): void {
    this.pods.clear();
    this.available = 0;
    this.relisting = true;
    for (const p of pods) this.upsert(p);
    this.relisting = false;
    this.note();
  }

  upsert(p: Pod): void {
    if (p.metadata?.namespace !== this.ns) return;
    const uid = p.metadata.uid ?? '';
    const ready = p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    const available = ready && !p.metadata.deletionTimestamp;
    const c0 = p.spec?.containers?.[0];
    const s0 = p.status?.containerStatuses?.find((s) => s.name === c0?.name);
    const done = available && c0?.image === IMAGE_NEW && s0?.image === IMAGE_NEW && s0.ready;
    this.set(uid, { available, done });
  }

  remove(p: Pod): void {
    if (p.metadata?.namespace !== this.ns) return;
    const uid = p.metadata.uid ?? '';
    if (this.pods.get(uid)?.available) this.available--;
    this.pods.delete(uid);
    this.note();
  }

  private set(uid: string, s: { available: boolean; done: boolean }): void {
    const before = this.pods.get(uid);
    if (before?.available) this.available--;
    if (s.available) this.available++;
    this.pods.set(uid, s);
    if (s.done && this.t0 !== undefined && !this.doneSeen.has(uid)) {
      this.doneSeen.add(uid);
      this.doneAt.push(nowMs() - this.t0);
    }
    this.note();
  }

  private note(): void {
    if (this.t0 !== undefined && !this.relisting)
      this.maxUnavailable = Math.max(this.maxUnavailable, this.replicas - this.available);
  }
}

function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples VmRSS of the processes every 250 ms; `end()` gives the largest sample of each. */
function rssSampler(pids: Record<string, number>): { end(): Record<string, number> } {
  const peak: Record<string, number> = {};
  const sample = () => {
    for (const [n, pid] of Object.entries(pids)) {
      const b = procStatusBytes(pid, 'VmRSS');
      if (Number.isFinite(b) && !(b <= (peak[n] ?? 0))) peak[n] = b;
    }
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    end() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

// ---- the audit log -----------------------------------------------------------------------------

interface AuditRecord {
  /** Request received, and response complete (wall clock, ms). */
  at: number;
  end: number;
  client: string;
  /** kube-controller-manager's controller (the last part of its user agent), '' for other clients. */
  part: string;
  verb: string;
  resource: string;
  pod?: string;
  failed: boolean;
}

/** Who made a write, from its User-Agent (client-go's is `<binary>/<version> (<os/arch>) kubernetes/<commit>/<controller>`). */
export function clientOf(userAgent: string): string {
  if (userAgent.startsWith('regatta-cloneset')) return 'regatta-cloneset';
  if (userAgent.startsWith('kube-controller-manager/')) return 'kube-controller-manager';
  if (userAgent.startsWith('kube-scheduler/')) return 'kube-scheduler';
  if (userAgent === 'regatta-bench') return 'bench';
  // the node simulator's and the watcher's KubeClient both send the default `regatta`
  if (userAgent.startsWith('regatta')) return 'node simulator / watcher';
  return userAgent.split('/')[0] || '(none)';
}

export async function readAudit(path: string): Promise<AuditRecord[]> {
  const out: AuditRecord[] = [];
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const e = JSON.parse(line) as {
      stage?: string;
      verb: string;
      userAgent?: string;
      objectRef?: { resource?: string; subresource?: string; name?: string };
      responseStatus?: { code?: number };
      requestReceivedTimestamp: string;
      stageTimestamp: string;
    };
    if (e.stage !== 'ResponseComplete') continue;
    const r = e.objectRef;
    const resource = `${r?.resource ?? '?'}${r?.subresource ? `/${r.subresource}` : ''}`;
    const ua = e.userAgent ?? '';
    const client = clientOf(ua);
    out.push({
      at: Date.parse(e.requestReceivedTimestamp),
      end: Date.parse(e.stageTimestamp),
      client,
      part: client === 'kube-controller-manager' ? ua.slice(ua.lastIndexOf('/') + 1) : '',
      verb: e.verb,
      resource,
      ...(r?.resource === 'pods' && r.name ? { pod: r.name } : {}),
      failed: (e.responseStatus?.code ?? 200) >= 300,
    });
  }
  return out;
}

export function tally(records: AuditRecord[], window: PhaseResult['window']): Map<string, WriteTally> {
  const byClient = new Map<
    string,
    WriteTally & { perPod: Map<string, number>; podSpans: [number, number][] }
  >();
  for (const r of records) {
    if (r.at < window.fromMs || r.at > window.toMs) continue;
    let t = byClient.get(r.client);
    if (!t) {
      t = {
        byKind: new Map(),
        podWrites: 0,
        all: 0,
        failed: 0,
        afterDone: 0,
        maxPerPod: 0,
        podsWritten: 0,
        podConcurrency: 0,
        podLatencyP50: NaN,
        podBusyShare: NaN,
        perPod: new Map(),
        podSpans: [],
      };
      byClient.set(r.client, t);
    }
    const k = `${r.resource} ${r.verb}${r.part ? ` (${r.part})` : ''}`;
    t.byKind.set(k, (t.byKind.get(k) ?? 0) + 1);
    t.all++;
    if (r.failed) t.failed++;
    if (r.at > window.doneMs) t.afterDone++;
    if (r.resource.startsWith('pods')) {
      t.podWrites++;
      if (r.pod) t.perPod.set(r.pod, (t.perPod.get(r.pod) ?? 0) + 1);
      if (r.at <= window.doneMs) t.podSpans.push([r.at, Math.max(r.at, r.end)]);
    }
  }
  for (const t of byClient.values()) {
    t.podsWritten = t.perPod.size;
    t.maxPerPod = Math.max(0, ...t.perPod.values());
    const spans = t.podSpans.sort((a, b) => a[0] - b[0]);
    if (spans.length === 0) continue;
    t.podLatencyP50 = summarize(spans.map(([a, b]) => b - a)).p50;
    // most in flight at once (a sweep over starts and ends), and the union of the spans
    const edges = spans.flatMap(([a, b]) => [[a, 1] as const, [b, -1] as const]);
    edges.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    let cur = 0;
    for (const [, d] of edges) t.podConcurrency = Math.max(t.podConcurrency, (cur += d));
    let busy = 0;
    let [from, to] = spans[0] ?? [0, 0];
    for (const [a, b] of spans.slice(1)) {
      if (a > to) {
        busy += to - from;
        [from, to] = [a, b];
      } else to = Math.max(to, b);
    }
    busy += to - from;
    t.podBusyShare = busy / Math.max(1, window.doneMs - window.fromMs);
  }
  return byClient;
}

// ---- the benchmark ---------------------------------------------------------------------------------

function podSpec(image: string) {
  return {
    containers: [{ name: 'app', image, ports: [{ containerPort: 8080, protocol: 'TCP' }] }],
  };
}

export async function benchRollout(ctx: Ctx): Promise<RolloutResult> {
  const { cluster, log, replicas: n, restartMs: t } = ctx;
  const { kubeconfig, nats } = cluster.endpoints;
  // a user agent of its own, so the audit log tells the benchmark's writes (the image patch) apart
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  /** The measured change, the same on both sides: the first container's image, as `kubectl set image` does. */
  const setNewImage = async (ref: { apiVersion: string; kind: string; namespace: string; name: string }) =>
    (
      await client.patch(
        ref,
        [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: IMAGE_NEW }],
        {
          type: 'json',
        },
      )
    ).metadata?.generation ?? Infinity;
  const batch = Math.max(1, Math.floor(n / 10));
  const boundS = (Math.ceil(n / batch) * t) / 1000;
  const nodes = Math.max(3, Math.ceil((2 * n) / MAX_PODS_PER_NODE));
  const timeoutS = Math.round(4 * boundS + 120);
  const record = (name: string) => cluster.processRecords.find((p) => p.name === name)?.pid ?? -1;

  await installCrds(kubeconfig, generateCrds() as unknown as Parameters<typeof installCrds>[1]);
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'regatta-system' } });

  // kubelets: N pods, ≥ 2N slots (a Deployment's terminating pods still hold theirs); the same t for a
  // new pod's containers to start and for a container restarted in place; image pulls take no time
  const sim = Child.start('node simulator', './rollout-simulator.ts');
  let stopping = false; // no more restarts of the Regatta programs
  let podWatch: ListWatcher<Pod> | undefined;
  let released: Promise<void> | undefined;
  /** Stops what this benchmark runs in this process and the simulator (the cluster stops its programs). */
  const release = () =>
    (released ??= (async () => {
      stopping = true;
      await podWatch?.stop();
      await sim.call('stop').catch(() => undefined);
      await sim.stop();
      await client.close();
    })());
  try {
    await sim.call('start', {
      kubeconfig,
      nodes,
      maxPods: MAX_PODS_PER_NODE,
      timings: { podStartMs: t, containerRestartMs: t, imagePullMs: 0 },
      logFile: join(ctx.logsDir, 'node-simulator.log'),
    });
    log(
      `node simulator: ${nodes} nodes × ${MAX_PODS_PER_NODE} pods; t = ${t} ms (pod start and in-place restart)`,
    );

    // Regatta: the watcher and the cloneset controller, as the sandbox runs them
    const [watcherHealth, csHealth] = (await freePorts(2)) as [number, number];
    const common = {
      KUBECONFIG: kubeconfig,
      NATS_URL: nats ?? '',
      REGATTA_BUS_PREFIX: 'benchroll_',
      REGATTA_LEASE_NAMESPACE: 'regatta-system',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
    };
    // Supervised as a Deployment's kubelet would: a program that exits (a lost leader lease, say) is
    // started again after 1 s, at most MAX_RESTARTS times; every restart is reported with its reason.
    const programs: { name: string; p: ManagedProcess }[] = [];
    const restarts: Restart[] = [];
    let phase = 'start-up';
    const program = async (name: string, app: string, port: number, probe: string) => {
      const logFile = join(ctx.logsDir, `${name}.log`);
      const spawn = async () => {
        const p = startProgram({
          name,
          entry: appEntryPath(app),
          logFile,
          env: { ...common, REGATTA_HEALTH_ADDR: `127.0.0.1:${port}`, POD_NAME: `bench-${name}` },
        });
        await cluster.adopt(p);
        return p;
      };
      const s = { name, p: await spawn() };
      programs.push(s);
      await waitFor(
        `${name} to serve ${probe}`,
        async () => {
          s.p.assertRunning();
          return (await fetch(`http://127.0.0.1:${port}${probe}`).catch(() => undefined))?.ok ?? false;
        },
        { timeoutMs: 90_000, intervalMs: 250 },
      );
      void (async () => {
        for (;;) {
          const code = await s.p.exited;
          if (stopping) return;
          const r = { name, phase, atMs: Date.now(), code, reason: lastError(logFile) };
          restarts.push(r);
          log(`${name} EXITED (code ${code}) during ${phase}: ${r.reason}`);
          if (restarts.length > MAX_RESTARTS)
            return log(`${name}: not restarted (more than ${MAX_RESTARTS})`);
          await sleep(1000);
          if (stopping) return;
          s.p = await spawn();
          log(`${name} restarted`);
        }
      })();
      return s;
    };
    const watcher = await program('watcher', 'watcher', watcherHealth, '/healthz');
    const cloneset = await program('cloneset', 'cloneset', csHealth, '/readyz');
    log('watcher and cloneset controller up');

    // one pod watch for the whole benchmark; each phase tracks its own namespace
    let tracker = new PodTracker('', n);
    podWatch = new ListWatcher<Pod>(client, PODS, {
      onList: async (pods) => tracker.reset(pods),
      onUpsert: async (p) => tracker.upsert(p),
      onDelete: async (p) => tracker.remove(p),
    });
    podWatch.start();

    const basePids = () => ({
      'kube-apiserver': record('kube-apiserver'),
      etcd: record('etcd'),
      'nats-server': record('nats-server'),
      'kube-scheduler': record('kube-scheduler'),
      'kube-controller-manager': record('kube-controller-manager'),
      'node simulator': sim.pid,
      'bench orchestrator': process.pid,
    });

    const rssNow = (pids: Record<string, number>) =>
      Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, procStatusBytes(pid, 'VmRSS')]));

    /** The measured part of a phase, the same for both sides. */
    const measure = async <T extends KubeObject>(o: {
      name: string;
      ns: string;
      follower: Follower<T>;
      pids: Record<string, number>;
      setupS: number;
      idleRss: Record<string, number>;
      patch: () => Promise<number>;
      done: (obj: T, generation: number) => boolean;
      describe: (obj: T | undefined) => string;
    }): Promise<PhaseResult> => {
      const before = (await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: o.ns })).items;
      const uids = new Set(before.map((p) => p.metadata?.uid));
      const cpu = cpuWindow(o.pids);
      const rss = rssSampler(o.pids);
      const fromMs = Date.now();
      tracker.begin();
      const t0 = nowMs();
      const progress = setInterval(
        () =>
          log(
            `${o.name}: ${tracker.doneCount}/${n} pods new and Ready, ${n - tracker.availableCount} unavailable`,
          ),
        10_000,
      );
      let at: number | undefined;
      let rssPeak: Record<string, number>;
      try {
        const generation = await o.patch();
        at = await o.follower.until((obj) => o.done(obj, generation), timeoutS * 1000);
      } finally {
        clearInterval(progress);
        rssPeak = rss.end();
      }
      const doneMs = Date.now();
      const cpuW = cpu.end();
      const hwm = Object.fromEntries(
        Object.entries(o.pids).map(([k, pid]) => [k, procStatusBytes(pid, 'VmHWM')]),
      );
      const durationS = at === undefined ? undefined : (at - t0) / 1000;
      log(
        durationS === undefined
          ? `${o.name}: NOT done after ${timeoutS} s: ${o.describe(o.follower.latest)}`
          : `${o.name}: done in ${durationS.toFixed(1)} s (bound ${boundS} s)`,
      );
      await sleep(TAIL_MS);
      const toMs = Date.now();
      const doneAt = [...tracker.doneAt].sort((a, b) => a - b);
      const after = (await client.list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: o.ns })).items.filter(
        (p) => !p.metadata?.deletionTimestamp,
      );
      const notes: string[] = [];
      const kept = after.filter((p) => uids.has(p.metadata?.uid)).length;
      const newImage = after.filter((p) => p.spec?.containers?.[0]?.image === IMAGE_NEW).length;
      const restarts = new Map<number, number>();
      for (const p of after) {
        const rc = p.status?.containerStatuses?.[0]?.restartCount ?? 0;
        restarts.set(rc, (restarts.get(rc) ?? 0) + 1);
      }
      notes.push(
        `${after.length} pods at the end, ${newImage} at ${IMAGE_NEW}, ${kept} kept their UID; ` +
          `restartCount: ${[...restarts].map(([rc, k]) => `${k}×${rc}`).join(', ')}`,
      );
      return {
        name: o.name,
        setupS: o.setupS,
        durationS,
        timeoutS,
        podsDoneS: doneAt.length >= n ? (doneAt[n - 1] ?? NaN) / 1000 : undefined,
        podDoneS: doneAt.map((x) => x / 1000),
        maxUnavailable: tracker.maxUnavailable,
        finalStatus: o.describe(o.follower.latest),
        window: { fromMs, doneMs, toMs },
        cpuS: Object.fromEntries(
          Object.entries(cpuW.percent).map(([k, pct]) => [k, (pct * cpuW.elapsedS) / 100]),
        ),
        rssPeak,
        hwm,
        idleRss: o.idleRss,
        notes,
      };
    };

    const waitPodsGone = async (ns: string) => {
      await waitFor(
        `the pods of ${ns} to be gone`,
        async () => (await client.list({ apiVersion: 'v1', kind: 'Pod', namespace: ns })).items.length === 0,
        { timeoutMs: 300_000, intervalMs: 1000 },
      );
    };

    // ---- CloneSet, in place ----
    const csNs = 'bench-cloneset';
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: csNs } });
    tracker = new PodTracker(csNs, n);
    const csFollower = new Follower<CloneSetObj>(client, CLONESETS, csNs, 'bench');
    let cloneSet: PhaseResult;
    const csPids = () => ({ 'regatta-cloneset': cloneset.p.pid, watcher: watcher.p.pid, ...basePids() });
    const csIdle = rssNow(csPids());
    try {
      // no webhook runs here, so the CloneSet is sent as the mutating webhook would leave it
      const cs = defaultCloneSet({
        apiVersion: 'apps.kruise.io/v1alpha1',
        kind: 'CloneSet',
        metadata: { name: 'bench', namespace: csNs },
        spec: {
          replicas: n,
          selector: { matchLabels: { app: 'bench-cs' } },
          template: { metadata: { labels: { app: 'bench-cs' } }, spec: podSpec(IMAGE_OLD) },
          updateStrategy: {
            type: 'InPlaceIfPossible',
            maxUnavailable: MAX_UNAVAILABLE,
            maxSurge: 0,
            partition: 0,
          },
        },
      } as unknown as CloneSet);
      phase = 'CloneSet setup';
      const s0 = nowMs();
      const created = await client.create(cs as unknown as KubeObject);
      const ok = await csFollower.until((o) => {
        const s = o.status;
        return (
          s?.observedGeneration === created.metadata?.generation &&
          s?.readyReplicas === n &&
          s.updatedReadyReplicas === n
        );
      }, 600_000);
      if (ok === undefined) throw new Error(`CloneSet did not get ${n} ready pods in 10 min`);
      const setupS = (ok - s0) / 1000;
      log(`CloneSet: ${n} pods ready in ${setupS.toFixed(1)} s; settling 5 s`);
      await sleep(5000);

      phase = 'CloneSet rollout';
      const describe = (o: CloneSetObj | undefined) => {
        const s = o?.status;
        return s
          ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
              `ready ${s.readyReplicas}, updated ${s.updatedReplicas}, updatedReady ${s.updatedReadyReplicas}, ` +
              `current ${s.currentRevision}, update ${s.updateRevision}`
          : 'no status';
      };
      cloneSet = await measure({
        name: 'CloneSet',
        ns: csNs,
        follower: csFollower,
        pids: csPids(),
        setupS,
        idleRss: csIdle,
        patch: () =>
          setNewImage({
            apiVersion: 'apps.kruise.io/v1alpha1',
            kind: 'CloneSet',
            namespace: csNs,
            name: 'bench',
          }),
        done: (o, gen) => {
          const s = o.status;
          return (
            (s?.observedGeneration ?? 0) >= gen &&
            s?.updatedReadyReplicas === n &&
            s.readyReplicas === n &&
            s.replicas === n &&
            !!s.updateRevision &&
            s.currentRevision === s.updateRevision
          );
        },
        describe,
      });
    } finally {
      await csFollower.stop();
    }
    await client.delete(
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: csNs, name: 'bench' },
      { propagationPolicy: 'Background' },
    );
    await waitPodsGone(csNs);
    // the Deployment's side runs without Regatta's processes, as a cluster without Regatta would
    stopping = true;
    for (const s of programs.reverse()) await s.p.stop();
    log('CloneSet deleted, its pods gone; watcher and cloneset controller stopped');

    // ---- Deployment, pods recreated ----
    phase = 'Deployment';
    const dNs = 'bench-deployment';
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: dNs } });
    tracker = new PodTracker(dNs, n);
    const dFollower = new Follower<DeploymentObj>(client, DEPLOYMENTS, dNs, 'bench');
    let deployment: PhaseResult;
    const dIdle = rssNow(basePids());
    try {
      const s0 = nowMs();
      const created = await client.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'bench', namespace: dNs },
        spec: {
          replicas: n,
          selector: { matchLabels: { app: 'bench-deploy' } },
          strategy: {
            type: 'RollingUpdate',
            rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE, maxSurge: 0 },
          },
          template: { metadata: { labels: { app: 'bench-deploy' } }, spec: podSpec(IMAGE_OLD) },
        },
      } as KubeObject);
      const ok = await dFollower.until((o) => {
        const s = o.status;
        return (
          s?.observedGeneration === created.metadata?.generation &&
          s?.availableReplicas === n &&
          s.updatedReplicas === n
        );
      }, 600_000);
      if (ok === undefined) throw new Error(`Deployment did not get ${n} available pods in 10 min`);
      const setupS = (ok - s0) / 1000;
      log(`Deployment: ${n} pods ready in ${setupS.toFixed(1)} s; settling 5 s`);
      await sleep(5000);
      deployment = await measure({
        name: 'Deployment',
        ns: dNs,
        follower: dFollower,
        pids: basePids(),
        setupS,
        idleRss: dIdle,
        patch: () =>
          setNewImage({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: dNs, name: 'bench' }),
        done: (o, gen) => {
          const s = o.status;
          return (
            (s?.observedGeneration ?? 0) >= gen &&
            s?.updatedReplicas === n &&
            s.readyReplicas === n &&
            s.availableReplicas === n &&
            s.replicas === n
          );
        },
        describe: (o) => {
          const s = o?.status;
          return s
            ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, replicas ${s.replicas}, ` +
                `ready ${s.readyReplicas}, available ${s.availableReplicas}, updated ${s.updatedReplicas}`
            : 'no status';
        },
      });
    } finally {
      await dFollower.stop();
    }
    await release();

    await sleep(1000); // the audit log is written as responses complete; let the last lines land
    const records = await readAudit(ctx.auditLog);
    return {
      replicas: n,
      restartMs: t,
      batch,
      boundS,
      nodes,
      cloneSet,
      deployment,
      restarts,
      writes: { cloneSet: tally(records, cloneSet.window), deployment: tally(records, deployment.window) },
    };
  } finally {
    // also on the way out of a failure, before the cluster stops: no program is started again
    await release();
  }
}

// ---- the report ----------------------------------------------------------------------------------

const mib = (b: number | undefined) =>
  b !== undefined && Number.isFinite(b) ? `${(b / 2 ** 20).toFixed(0)} MiB` : 'n/a';
const perPod = (x: number | undefined, n: number) => (x === undefined ? 'n/a' : (x / n).toFixed(2));

export function reportRollout(r: RolloutResult): string {
  const n = r.replicas;
  const cs = r.cloneSet;
  const dp = r.deployment;
  const csW = r.writes.cloneSet.get('regatta-cloneset');
  const dpW = r.writes.deployment.get('kube-controller-manager');
  const goal = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const csRatio = cs.durationS === undefined ? undefined : cs.durationS / r.boundS;
  const out: string[] = [];

  out.push(
    `Rollout of an image change over N = ${n} pods, maxUnavailable ${MAX_UNAVAILABLE} (batch ${r.batch}), ` +
      `t = ${fmt(r.restartMs / 1000, 1)} s for a container to be ready after an in-place restart ` +
      `(CloneSet) or a new pod's start (Deployment); bound ceil(N/batch)·t = ${fmt(r.boundS, 1)} s; ` +
      `${r.nodes} simulated nodes`,
    '',
    table([
      [
        '',
        'CloneSet InPlaceIfPossible',
        'Deployment RollingUpdate (baseline)',
        'CloneSet / Deployment',
        'goal',
      ],
      [
        'duration, patch → status done (s)',
        cs.durationS === undefined ? `> ${cs.timeoutS} (not done)` : fmt(cs.durationS, 1),
        dp.durationS === undefined ? `> ${dp.timeoutS} (not done)` : fmt(dp.durationS, 1),
        ratio(cs.durationS ?? NaN, dp.durationS ?? NaN),
        '',
      ],
      [
        'duration / bound',
        csRatio === undefined ? 'n/a' : fmt(csRatio, 2),
        dp.durationS === undefined ? 'n/a' : fmt(dp.durationS / r.boundS, 2),
        '',
        `≤ 1.10: ${csRatio !== undefined && csRatio <= 1.1 ? 'met' : 'MISSED'}`,
      ],
      [
        'patch → last pod new and Ready (s)',
        cs.podsDoneS === undefined ? 'n/a' : fmt(cs.podsDoneS, 1),
        dp.podsDoneS === undefined ? 'n/a' : fmt(dp.podsDoneS, 1),
        ratio(cs.podsDoneS ?? NaN, dp.podsDoneS ?? NaN),
        '',
      ],
      [
        'controller pod writes / pod',
        `${perPod(csW?.podWrites ?? 0, n)} (regatta-cloneset)`,
        `${perPod(dpW?.podWrites ?? 0, n)} (kube-controller-manager)`,
        ratio(csW?.podWrites ?? 0, dpW?.podWrites ?? 0),
        `≤ 2: ${goal((csW?.podWrites ?? 0) / n <= 2)}`,
      ],
      [
        'controller writes of any kind / pod',
        perPod(csW?.all ?? 0, n),
        perPod(dpW?.all ?? 0, n),
        ratio(csW?.all ?? 0, dpW?.all ?? 0),
        '',
      ],
      [
        'controller CPU during the rollout (s)',
        fmt(cs.cpuS['regatta-cloneset'] ?? NaN, 2),
        fmt(dp.cpuS['kube-controller-manager'] ?? NaN, 2),
        ratio(cs.cpuS['regatta-cloneset'] ?? NaN, dp.cpuS['kube-controller-manager'] ?? NaN),
        '',
      ],
      [
        '  + the watcher (Regatta reads through it)',
        fmt((cs.cpuS['regatta-cloneset'] ?? NaN) + (cs.cpuS['watcher'] ?? NaN), 2),
        fmt(dp.cpuS['kube-controller-manager'] ?? NaN, 2),
        ratio(
          (cs.cpuS['regatta-cloneset'] ?? NaN) + (cs.cpuS['watcher'] ?? NaN),
          dp.cpuS['kube-controller-manager'] ?? NaN,
        ),
        '',
      ],
      [
        'controller peak RSS during the rollout',
        mib(cs.rssPeak['regatta-cloneset']),
        mib(dp.rssPeak['kube-controller-manager']),
        ratio(cs.rssPeak['regatta-cloneset'] ?? NaN, dp.rssPeak['kube-controller-manager'] ?? NaN),
        '',
      ],
      [
        'controller RSS before the workload (idle)',
        mib(cs.idleRss['regatta-cloneset']),
        mib(dp.idleRss['kube-controller-manager']),
        '',
        '',
      ],
      [
        'controller VmHWM (peak since start)',
        mib(cs.hwm['regatta-cloneset']),
        mib(dp.hwm['kube-controller-manager']),
        '',
        '',
      ],
      [
        'most pods unavailable at once',
        `${cs.maxUnavailable}`,
        `${dp.maxUnavailable}`,
        '',
        `≤ ${r.batch}: ${goal(cs.maxUnavailable <= r.batch)} / ${goal(dp.maxUnavailable <= r.batch)}`,
      ],
      [
        'N pods created to all ready (s)',
        fmt(cs.setupS, 1),
        fmt(dp.setupS, 1),
        ratio(cs.setupS, dp.setupS),
        '',
      ],
      [
        'controller exits: during setup / rollout',
        `${r.restarts.filter((x) => x.phase === 'CloneSet setup').length} / ` +
          `${r.restarts.filter((x) => x.phase === 'CloneSet rollout').length}`,
        '(not supervised)',
        '',
        '',
      ],
    ]),
  );

  // progress: when each batch's worth of pods was done
  const batches = Math.ceil(n / r.batch);
  const rows: (string | number)[][] = [
    ['pods new and Ready', 'CloneSet at (s)', 'Δ (s)', 'Deployment at (s)', 'Δ (s)', 'ideal k·t (s)'],
  ];
  const at = (xs: number[], k: number) => xs[k - 1] ?? NaN;
  for (let b = 1; b <= batches; b++) {
    const k = Math.min(n, b * r.batch);
    const kPrev = (b - 1) * r.batch;
    const delta = (xs: number[]) => at(xs, k) - (kPrev ? at(xs, kPrev) : 0);
    rows.push([
      `${k}`,
      fmt(at(cs.podDoneS, k), 1),
      fmt(delta(cs.podDoneS), 1),
      fmt(at(dp.podDoneS, k), 1),
      fmt(delta(dp.podDoneS), 1),
      fmt((b * r.restartMs) / 1000, 1),
    ]);
  }
  out.push(
    '',
    'Progress (from the pods: first seen at the new image and Ready; from the image patch)',
    '',
    table(rows),
  );

  // writes by client
  const clients = [
    ...new Set([...r.writes.cloneSet.keys(), ...r.writes.deployment.keys()].filter((c) => c !== 'bench')),
  ].sort();
  const wrows: (string | number)[][] = [
    ['client', 'resource verb', 'CloneSet side', '/pod', 'Deployment side', '/pod'],
  ];
  for (const c of clients) {
    const a = r.writes.cloneSet.get(c);
    const b = r.writes.deployment.get(c);
    const kinds = [...new Set([...(a?.byKind.keys() ?? []), ...(b?.byKind.keys() ?? [])])].sort();
    for (const k of kinds) {
      const x = a?.byKind.get(k) ?? 0;
      const y = b?.byKind.get(k) ?? 0;
      wrows.push([c, k, x, perPod(x, n), y, perPod(y, n)]);
    }
    wrows.push([
      c,
      `= all (failed; after done)`,
      `${a?.all ?? 0} (${a?.failed ?? 0}; ${a?.afterDone ?? 0})`,
      perPod(a?.all ?? 0, n),
      `${b?.all ?? 0} (${b?.failed ?? 0}; ${b?.afterDone ?? 0})`,
      perPod(b?.all ?? 0, n),
    ]);
  }
  out.push(
    '',
    `API writes from the audit log, patch → done + ${TAIL_MS / 1000} s, by user agent (create/update/patch/delete; ` +
      '"failed": answered with an error status; "after done": in the tail)',
    '',
    table(wrows),
  );
  const how = (who: string, w: WriteTally | undefined) =>
    w
      ? `${who}: pod writes up to done at most ${w.podConcurrency} in flight at once, API latency p50 ` +
        `${fmt(w.podLatencyP50, 0)} ms, at least one in flight during ${fmt(100 * w.podBusyShare, 0)} % ` +
        `of patch → done; ${w.podsWritten} pods written by name, at most ${w.maxPerPod} writes on one`
      : `${who}: no writes`;
  out.push('', how('regatta-cloneset', csW), how('kube-controller-manager', dpW));

  // CPU of everything, both windows
  const names = [...new Set([...Object.keys(cs.cpuS), ...Object.keys(dp.cpuS)])];
  out.push(
    '',
    'CPU seconds per process, patch → done (the machine has 2 cores)',
    '',
    table([
      ['process', 'CloneSet side', 'Deployment side'],
      ...names.map((k) => [k, fmt(cs.cpuS[k] ?? NaN, 2), fmt(dp.cpuS[k] ?? NaN, 2)]),
    ]),
  );
  for (const p of [cs, dp]) {
    const elsewhere = p.cpuS['everything else'] ?? 0;
    const elapsed = p.durationS ?? p.timeoutS;
    if (elsewhere / elapsed > 0.25)
      out.push(
        '',
        `Note: during the ${p.name} rollout, work outside the benchmark used ${fmt((100 * elsewhere) / elapsed, 0)} % ` +
          'of a core: the machine was shared, and these figures are slower than a quiet run.',
      );
  }
  for (const x of r.restarts) {
    out.push(
      '',
      `${x.name} EXITED during the ${x.phase} (code ${x.code}) and was started again: ${x.reason}` +
        (x.phase === 'CloneSet rollout' ? ' (its CPU and memory figures cover only the part before)' : ''),
    );
  }
  out.push('', `CloneSet at the end: ${cs.finalStatus}`, `  ${cs.notes.join('\n  ')}`);
  out.push(`Deployment at the end: ${dp.finalStatus}`, `  ${dp.notes.join('\n  ')}`);
  return out.join('\n');
}
