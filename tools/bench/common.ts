// Shared pieces of the benchmarks: statistics, formatting, the API server's metrics, and child
// processes (a benchmark's writers and observers run as separate processes, like real controllers)
// talking to the orchestrator over Node's IPC channel.
import { execFileSync, fork, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubeClient } from '@regatta/kube';
import { NODE_ARGS_ENV } from '@regatta/local-cluster';
import { NODE_FLAGS, PROGRAM_ENV } from '../build/node-flags.mjs';

/**
 * Milliseconds on the machine's monotonic clock (CLOCK_MONOTONIC via process.hrtime), with
 * sub-millisecond resolution: one clock for every process on the machine, so a time taken in the
 * writer can be subtracted from a time taken in an observer. (performance.timeOrigin + now() would
 * anchor each process to the wall clock separately at its start.)
 */
export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const sum = s.reduce((a, b) => a + b, 0);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : NaN,
    mean: s.length ? sum / s.length : NaN,
  };
}

export const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : 'n/a');
export const ratio = (x: number, base: number) =>
  base > 0 && Number.isFinite(x) ? (x / base).toFixed(2) : 'n/a';
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(2)} KiB`;

/** A plain-text table: first row is the header. */
export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join(
    '\n',
  );
}

/**
 * Sum of the samples of one metric family in a Prometheus text exposition whose labels include all of `match`,
 * and the sample lines summed.
 */
export function metricSum(
  text: string,
  name: string,
  match: Record<string, string> = {},
): { sum: number; samples: string[] } {
  let sum = 0;
  const samples: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    const labels = Object.fromEntries(
      [...(line.match(/\{(.*)\}/)?.[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    );
    if (!Object.entries(match).every(([k, v]) => labels[k] === v)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    samples.push(line);
  }
  return { sum, samples };
}

/**
 * Sum of the samples of one metric family on the API server's /metrics whose labels include all of `match`. Read
 * with the admin client certificate of the kubeconfig.
 */
export async function apiserverMetric(
  client: KubeClient,
  name: string,
  match: Record<string, string>,
): Promise<{ sum: number; samples: string[] }> {
  return metricSum(
    String(await client.request<string>('GET', '/metrics', { timeoutMs: 20_000 })),
    name,
    match,
  );
}

// ---- CPU accounting (Linux /proc) ----------------------------------------------------------------

const clockTicks = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) a process has used so far; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / clockTicks; // utime, stime (fields 14 and 15)
  } catch {
    return NaN;
  }
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return (f.reduce((a, b) => a + b, 0) - idle) / clockTicks;
  } catch {
    return NaN;
  }
}

export interface CpuWindow {
  elapsedS: number;
  /** Percent of one core per named process, plus `everything else` and `machine` (all cores busy). */
  percent: Record<string, number>;
}

/** Starts measuring the CPU used by named processes; `end()` gives percent of one core over the window. */
export function cpuWindow(pids: Record<string, number>): { end(): CpuWindow } {
  const t0 = nowMs();
  const m0 = machineBusySeconds();
  const before = Object.fromEntries(Object.entries(pids).map(([n, pid]) => [n, cpuSeconds(pid)]));
  return {
    end() {
      const elapsedS = (nowMs() - t0) / 1000;
      const percent: Record<string, number> = {};
      let ours = 0;
      for (const [n, pid] of Object.entries(pids)) {
        const used = cpuSeconds(pid) - before[n]!;
        percent[n] = (100 * used) / elapsedS;
        if (Number.isFinite(used)) ours += used;
      }
      const machine = machineBusySeconds() - m0;
      percent['everything else'] = (100 * (machine - ours)) / elapsedS;
      percent['machine'] = (100 * machine) / elapsedS;
      return { elapsedS, percent };
    },
  };
}

// ---- child processes ------------------------------------------------------------------------------

interface RpcRequest {
  id: number;
  method: string;
  params: unknown;
}
interface RpcResponse {
  id: number;
  result?: unknown;
  error?: string;
}

const live = new Set<Child>();

/** A benchmark helper process (a TypeScript entry run like the sandbox runs programs: tsx, library sources). */
export class Child {
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly exited: Promise<number | null>;

  private constructor(
    readonly name: string,
    private readonly proc: ChildProcess,
  ) {
    live.add(this);
    proc.on('message', (m: RpcResponse) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(`${name}: ${m.error}`));
      else p.resolve(m.result);
    });
    this.exited = new Promise((resolve) =>
      proc.on('exit', (code) => {
        live.delete(this);
        for (const p of this.pending.values())
          p.reject(new Error(`${name} exited (code ${code}) before answering`));
        this.pending.clear();
        resolve(code);
      }),
    );
  }

  /** Starts `tools/bench/<file>` with `--conditions=@regatta/source --import tsx` (plus `extraNodeArgs`). */
  static start(name: string, file: string, extraNodeArgs: string[] = [], env: NodeJS.ProcessEnv = {}): Child {
    const entry = fileURLToPath(new URL(file, import.meta.url));
    const proc = fork(entry, [], {
      execArgv: ['--conditions=@regatta/source', '--import', import.meta.resolve('tsx'), ...extraNodeArgs],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, ...env },
    });
    return new Child(name, proc);
  }

  get pid(): number {
    return this.proc.pid ?? -1;
  }

  call<T>(method: string, params: unknown = {}): Promise<T> {
    const id = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      // a helper already gone (e.g. a Ctrl-C reaches the whole process group) fails the call, not the run: without a
      // callback a closed channel is an 'error' event nobody handles
      this.proc.send({ id, method, params } satisfies RpcRequest, (err) => {
        if (!err || !this.pending.delete(id)) return;
        reject(new Error(`${this.name}: ${err.message}`));
      });
    });
  }

  async stop(graceMs = 5000): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.proc.kill('SIGTERM');
    const done = await Promise.race([this.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!done) {
      this.proc.kill('SIGKILL');
      await this.exited;
    }
  }
}

/** Kills every helper process still running (error paths). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...live].map((c) => c.stop()));
}

/**
 * The child side: answers the orchestrator's calls with `handlers`, and exits when the orchestrator
 * goes away (its IPC channel closes) so nothing outlives a run.
 */
export function serve(handlers: Record<string, (params: never) => Promise<unknown> | unknown>): void {
  if (!process.send) throw new Error('this file is a benchmark helper; run `npm run bench`');
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m: RpcRequest) => {
    void (async () => {
      const h = handlers[m.method];
      let reply: RpcResponse;
      try {
        if (!h) throw new Error(`no method ${m.method}`);
        reply = { id: m.id, result: await h(m.params as never) };
      } catch (err) {
        reply = { id: m.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      }
      process.send!(reply);
    })();
  });
}

/** The commit the run measures (`+ local changes` when the work tree differs), for the reports' headers. */
export function codeVersion(): string {
  try {
    const git = (...a: string[]) =>
      execFileSync('git', a, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const dirty = git('status', '--porcelain', '--untracked-files=no').trim() !== '';
    return `${git('rev-parse', '--short', 'HEAD').trim()}${dirty ? ' + local changes' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

// ---- the programs under test: their shipped bundles -------------------------------------------------

/** Which apps each benchmark starts (`apps/<name>`), so a run builds only those. */
export const BENCHMARK_APPS: Record<string, string[]> = {
  watches: ['watcher'],
  latency: ['watcher'],
  memory: [],
  rollout: ['watcher', 'cloneset'],
  'asts-rollout': ['watcher', 'asts'],
  'ads-rollout': ['watcher', 'ads'],
  distribution: ['watcher', 'resourcedistribution'],
  'sidecarset-latency': ['watcher', 'sidecarset'],
  'sidecarset-upgrade': ['watcher', 'sidecarset'],
  imagepull: ['watcher', 'imagepull', 'imagepull-agent'],
  coldstart: ['watcher', 'cloneset'],
  broadcastjob: ['watcher', 'broadcastjob'],
  bus: [],
};

/** Where the run's programs come from, for the report's header. */
export interface AppBundles {
  /** The build folder (`<folder>/<app>/main.mjs`), or undefined when the programs run from sources. */
  dir: string | undefined;
  /** Built for this run (else given by REGATTA_APP_BUNDLES), and how long the build took. */
  built: boolean;
  ms: number;
}

/** The header's words for `b`. */
export const describeBundles = (b: AppBundles): string =>
  b.dir === undefined
    ? 'programs from sources (tsx)'
    : (b.built
        ? `programs from bundles built for the run (${(b.ms / 1000).toFixed(0)} s)`
        : `programs from bundles in ${b.dir}`) + `, node ${NODE_FLAGS.join(' ')}`;

/**
 * Makes every Regatta program the benchmarks start run as it ships: from its bundle (tools/build/build.mjs, what
 * deploy/Dockerfile copies into the image; docs/operations.md), not from TypeScript sources under tsx, with the
 * Dockerfile's Node flags (tools/build/node-flags.mjs). Builds `apps` once into `<runDir>/bundles`, unless
 * REGATTA_APP_BUNDLES already names a build folder, and sets REGATTA_APP_BUNDLES, and the flags in REGATTA_NODE_ARGS, in
 * this process' environment: every program start reads both (`appEntryPath` and `entryCommand` in
 * @regatta/local-cluster), which put the flags on the bundle's command line as the Dockerfile does.
 * `sources` keeps the programs on sources without the flags (the baseline of docs/benchmarks-memory.md section 3).
 */
export function useAppBundles(runDir: string, apps: string[], o: { sources?: boolean } = {}): AppBundles {
  if (o.sources) {
    delete process.env['REGATTA_APP_BUNDLES'];
    return { dir: undefined, built: false, ms: 0 };
  }
  const root = fileURLToPath(new URL('../../', import.meta.url));
  process.env[NODE_ARGS_ENV] = NODE_FLAGS.join(' ');
  const given = process.env['REGATTA_APP_BUNDLES'];
  if (given) return { dir: resolve(root, given), built: false, ms: 0 };
  const dir = join(runDir, 'bundles');
  const t0 = Date.now();
  if (apps.length > 0) {
    const r = spawnSync(
      process.execPath,
      [join(root, 'tools/build/build.mjs'), ...apps, `--out-dir=${dir}`],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (r.status !== 0)
      throw new Error(`building the bundles of ${apps.join(', ')} failed (exit ${r.status})`);
  }
  process.env['REGATTA_APP_BUNDLES'] = dir;
  return { dir, built: true, ms: Date.now() - t0 };
}

/**
 * The environment deploy/Dockerfile gives every program (tools/build/node-flags.mjs `PROGRAM_ENV`), for programs run
 * from bundles with its flags ({@link useAppBundles}); none for programs from sources.
 */
export function shippedEnv(): NodeJS.ProcessEnv {
  return process.env[NODE_ARGS_ENV] ? { ...PROGRAM_ENV } : {};
}
