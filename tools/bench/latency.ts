// Benchmark 2: latency from an API write to a controller's cache seeing it, through Regatta (API
// server → watcher → NATS KV → bus Cache) and through a direct client-node informer, in the same run
// and for the same writes. Writer and the two observers are separate processes, as real controllers are.
import { cpus } from 'node:os';
import type { KubeClient } from '@regatta/kube';
import { Child, cpuWindow, fmt, sleep, summarize, table, type CpuWindow, type Summary } from './common.js';
import { benchPutStage, reportPutStage, type PutStageRow } from './latency-puts.js';

interface Ctx {
  client: KubeClient;
  kubeconfig: string;
  nats: string;
  prefix: string;
  rates: number[];
  warmMs: number;
  measureMs: number;
  configMaps: number;
  /** Processes of the run (control plane, nats-server, watcher) whose CPU use is reported. */
  processes: () => { name: string; pid: number }[];
  log: (line: string) => void;
}

interface WriterResult {
  target: number;
  issued: number;
  completed: number;
  errors: number;
  lastError: string;
  achievedRate: number;
  request: Summary;
}

export interface LatencyRow {
  target: number;
  writer: WriterResult;
  direct: Summary;
  regatta: Summary;
  /** Regatta's latency minus the direct informer's, write by write (writes both observers saw). */
  perWrite: Summary;
  /** The bus's own share as the cache measures it: watcher saw the event → cache applied it (ms resolution). */
  busLag: Summary;
  /** CPU use of every process during the measured writes. */
  cpu: CpuWindow;
}

export interface LatencyResult {
  rows: LatencyRow[];
  /** The watcher's put stage alone, one at a time vs pipelined (2b). */
  puts: PutStageRow[];
}

/** Event rates of the put stage (2b): the writer's target, and beyond what the API server reaches here. */
const PUT_STAGE_RATES = [1000, 3000];

const NS = 'bench-latency';

export async function benchLatency(ctx: Ctx): Promise<LatencyResult> {
  const { client, log } = ctx;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  const names = Array.from({ length: ctx.configMaps }, (_, i) => `cm-${i}`);
  for (let i = 0; i < names.length; i += 20) {
    await Promise.all(
      names.slice(i, i + 20).map((name) =>
        client.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: NS },
          data: { t: '0' },
        }),
      ),
    );
  }

  const regatta = Child.start('regatta observer', './latency-observer.ts');
  const direct = Child.start('direct observer', './latency-observer.ts');
  const writer = Child.start('writer', './latency-writer.ts');
  const observers = { regatta, direct };
  try {
    const common = { kubeconfig: ctx.kubeconfig, nats: ctx.nats, prefix: ctx.prefix, namespace: NS };
    await Promise.all([
      regatta.call('start', { ...common, mode: 'regatta' }),
      direct.call('start', { ...common, mode: 'direct' }),
    ]);
    const write = (rate: number, durationMs: number, phase: string) =>
      writer.call<WriterResult>('run', {
        kubeconfig: ctx.kubeconfig,
        namespace: NS,
        names,
        rate,
        durationMs,
        phase,
        maxInFlight: 64,
      });
    // both caches must see writes before anything counts (the watcher starts mirroring on registration)
    const deadline = Date.now() + 60_000;
    for (;;) {
      await write(20, 500, 'probe');
      await sleep(500);
      const [a, b] = await Promise.all([
        regatta.call<number>('count', { phase: 'probe' }),
        direct.call<number>('count', { phase: 'probe' }),
      ]);
      if (a > 0 && b > 0) break;
      if (Date.now() > deadline)
        throw new Error(`the caches saw no writes within 60 s (regatta ${a}, direct ${b})`);
    }

    const rows: LatencyRow[] = [];
    for (const rate of ctx.rates) {
      await write(rate, ctx.warmMs, `warm-${rate}`);
      const phase = `rate-${rate}`;
      const cpu = cpuWindow({
        ...Object.fromEntries(ctx.processes().map((p) => [p.name, p.pid])),
        writer: writer.pid,
        'regatta observer': regatta.pid,
        'direct observer': direct.pid,
        'bench orchestrator': process.pid,
      });
      const w = await write(rate, ctx.measureMs, phase);
      const cpuUse = cpu.end();
      // let the tail arrive: until both observers stop receiving for 2 s (at most 60 s)
      const counts = async () =>
        Promise.all([regatta.call<number>('count', { phase }), direct.call<number>('count', { phase })]);
      let last = await counts();
      let since = Date.now();
      const tailDeadline = Date.now() + 60_000;
      while (Date.now() - since < 2000 && Date.now() < tailDeadline) {
        await sleep(250);
        const c = await counts();
        if (c[0] !== last[0] || c[1] !== last[1]) {
          last = c;
          since = Date.now();
        }
      }
      const take = (o: Child) =>
        o.call<{ latencies: number[]; keys: string[]; lags: number[] }>('take', { phase });
      const [r, d] = await Promise.all([take(observers.regatta), take(observers.direct)]);
      for (const o of [regatta, direct]) await o.call('take', { phase: `warm-${rate}` });
      const row: LatencyRow = {
        target: rate,
        writer: w,
        direct: summarize(d.latencies),
        regatta: summarize(r.latencies),
        perWrite: summarize(pairDifferences(r, d)),
        busLag: summarize(r.lags),
        cpu: cpuUse,
      };
      rows.push(row);
      log(
        `${rate}/s target, ${fmt(w.achievedRate, 0)}/s achieved (${w.completed} writes, ${w.errors} errors): ` +
          `direct p50 ${fmt(row.direct.p50)} p99 ${fmt(row.direct.p99)} ms (${row.direct.n} seen), ` +
          `regatta p50 ${fmt(row.regatta.p50)} p99 ${fmt(row.regatta.p99)} ms (${row.regatta.n} seen)`,
      );
      if (w.errors > 0) log(`  last write error: ${w.lastError}`);
      log(`  CPU while writing (% of one core): ${cpuLine(cpuUse)}`);
    }
    await Promise.all([regatta.call('stop'), direct.call('stop')]);
    log(`put stage alone (2b): ${PUT_STAGE_RATES.join(', ')} events/s, one at a time vs pipelined`);
    const puts = await benchPutStage({
      nats: ctx.nats,
      prefix: ctx.prefix,
      rates: PUT_STAGE_RATES,
      durationMs: Math.max(3000, ctx.measureMs / 3),
      keys: ctx.configMaps,
    });
    return { rows, puts };
  } finally {
    await Promise.all([writer.stop(), regatta.stop(), direct.stop()]);
  }
}

function cpuLine(c: CpuWindow): string {
  return Object.entries(c.percent)
    .map(([n, v]) => `${n} ${fmt(v, 0)}`)
    .join(', ');
}

/** For every write both observers saw: regatta's latency minus the direct informer's. */
function pairDifferences(
  r: { latencies: number[]; keys: string[] },
  d: { latencies: number[]; keys: string[] },
): number[] {
  const direct = new Map<string, number>();
  d.keys.forEach((k, i) => direct.set(k, d.latencies[i]!));
  const out: number[] = [];
  r.keys.forEach((k, i) => {
    const x = direct.get(k);
    if (x !== undefined) out.push(r.latencies[i]! - x);
  });
  return out;
}

export function reportLatency({ rows, puts }: LatencyResult): string {
  const lines = [
    'Latency from an API write to a controller cache seeing it (ms; from the moment the writer sends the',
    'merge patch, so the API request itself is included on both sides; same writes, same run)',
    '',
    table([
      [
        'target/s',
        'achieved/s',
        'write p50',
        'write p99',
        'direct p50',
        'direct p99',
        'regatta p50',
        'regatta p99',
        'seen d/r/writes',
      ],
      ...rows.map((r) => [
        r.target,
        fmt(r.writer.achievedRate, 0),
        fmt(r.writer.request.p50),
        fmt(r.writer.request.p99),
        fmt(r.direct.p50),
        fmt(r.direct.p99),
        fmt(r.regatta.p50),
        fmt(r.regatta.p99),
        `${r.direct.n}/${r.regatta.n}/${r.writer.completed}`,
      ]),
    ]),
    '',
    'What the bus adds: regatta / direct (ratio of percentiles), regatta − direct (difference of',
    'percentiles), the same difference write by write (per-write p50/p99 over writes both saw), and the',
    'bus hop alone as the cache reports it (Change.lagMs: watcher saw the event → cache applied it, whole ms):',
    '',
    table([
      [
        'target/s',
        'ratio p50',
        'ratio p99',
        'adds p50',
        'adds p99',
        'per-write p50',
        'per-write p99',
        'bus hop p50',
        'bus hop p99',
      ],
      ...rows.map((r) => [
        r.target,
        (r.regatta.p50 / r.direct.p50).toFixed(2),
        (r.regatta.p99 / r.direct.p99).toFixed(2),
        fmt(r.regatta.p50 - r.direct.p50),
        fmt(r.regatta.p99 - r.direct.p99),
        fmt(r.perWrite.p50),
        fmt(r.perWrite.p99),
        fmt(r.busLag.p50, 0),
        fmt(r.busLag.p99, 0),
      ]),
    ]),
    '',
    'CPU during the measured writes (% of one core; the machine has ' + cpus().length + '):',
    ...rows.map((r) => `  ${r.target}/s: ${cpuLine(r.cpu)}`),
    ...rows
      .filter((r) => (r.cpu.percent['everything else'] ?? 0) > 25)
      .map(
        (r) =>
          `  note: at ${r.target}/s processes outside this benchmark used ${fmt(r.cpu.percent['everything else']!, 0)}% ` +
          'of a core; its latencies are disturbed (rerun on a quiet machine)',
      ),
    '',
    reportPutStage(puts),
  ];
  return lines.join('\n');
}
