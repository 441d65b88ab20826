// Benchmark 12: the bus's write cost, one server against a three-server JetStream cluster, each with nats-server's
// default lazy fsync (`sync_interval` 2 min) and with `sync_interval: always` (docs/adr/0086). A MirrorWriter puts
// pod-sized objects into a replicated mirror bucket while a Cache follows it: put latency one at a time (the
// acknowledgement a watcher waits for), write-to-cache latency (the envelope's observedAt to the cache's change),
// and a pipelined burst's throughput (the watcher keeps PUT_WINDOW puts in flight, docs/adr/0052). Every figure is
// printed next to the baseline measured in the same run: one server, default fsync (the bus before issue 46).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Cache, connectBus, KeyedPipeline, MirrorWriter, PUT_WINDOW, type KindRef, type KubeObject } from '@regatta/bus';
import { startNatsBus, type NatsSync } from '@regatta/local-cluster';
import { ratio as r, summarize, table, type Summary } from './common.js';

export interface BusSetup {
  servers: 1 | 3;
  sync: NatsSync;
}

export interface BusRow extends BusSetup {
  put: Summary;
  toCache: Summary;
  burstPerSec: number;
}

export const BUS_SETUPS: BusSetup[] = [
  { servers: 1, sync: 'default' },
  { servers: 1, sync: 'always' },
  { servers: 3, sync: 'default' },
  { servers: 3, sync: 'always' },
];

const kind: KindRef = { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true };

/** A pod of about the size the watcher mirrors (~3 KB of JSON). */
function pod(i: number, rv: number): KubeObject {
  return {
    metadata: {
      namespace: 'bench',
      name: `pod-${i}`,
      uid: `uid-${i}`,
      resourceVersion: String(rv),
      labels: { app: 'bench', 'pod-template-hash': 'abc123' },
      annotations: { note: 'x'.repeat(2000) },
    },
    spec: { nodeName: `node${i % 5}`, containers: [{ name: 'main', image: `registry/app:v${rv}` }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  } as KubeObject;
}

/** One setup on a bus of its own in `dir`: `n` puts one at a time, then a burst of `n` pipelined puts. */
export async function benchBusSetup(dir: string, s: BusSetup, n: number, log: (l: string) => void): Promise<BusRow> {
  const d = join(dir, `bus-${s.servers}-${s.sync}`);
  await mkdir(d, { recursive: true });
  const nats = await startNatsBus(d, s.servers, { sync: s.sync });
  try {
    const watcher = await connectBus({ servers: nats.url, name: 'bench-watcher' });
    const reader = await connectBus({ servers: nats.url, name: 'bench-cache' });
    try {
      const w = await MirrorWriter.open(watcher, kind);
      await w.markListed();
      const cache = new Cache(reader, kind);
      const toCache: number[] = [];
      cache.onChange((c) => {
        if (c.lagMs !== undefined) toCache.push(c.lagMs);
      });
      await cache.start();
      const put: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        await w.put(pod(i, 1));
        put.push(performance.now() - t);
      }
      const pipeline = new KeyedPipeline(PUT_WINDOW);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await pipeline.submit(`bench.pod-${i}`, () => w.put(pod(i, 2)).then(() => undefined));
      await pipeline.idle();
      const burstPerSec = n / ((performance.now() - t0) / 1000);
      const deadline = Date.now() + 30_000;
      while (toCache.length < 2 * n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await cache.stop();
      const row = { ...s, put: summarize(put), toCache: summarize(toCache), burstPerSec };
      log(
        `bus ${s.servers} server(s), fsync ${s.sync}: put p50 ${row.put.p50.toFixed(2)} ms, p99 ${row.put.p99.toFixed(2)} ms; burst ${burstPerSec.toFixed(0)}/s`,
      );
      return row;
    } finally {
      await watcher.close();
      await reader.close();
    }
  } finally {
    await nats.stop();
  }
}

export async function benchBus(dir: string, n: number, log: (l: string) => void): Promise<BusRow[]> {
  const rows: BusRow[] = [];
  for (const s of BUS_SETUPS) rows.push(await benchBusSetup(dir, s, n, log));
  return rows;
}

const ratio = (x: number, base: number) => `${r(x, base)}×`;

/** The table, each figure with its ratio to the first row (one server, default fsync). */
export function reportBus(rows: BusRow[], n: number): string {
  const base = rows[0]!;
  return [
    `Benchmark 12: the bus's write cost (${n} pod-sized puts one at a time, then ${n} pipelined; ratios against one server with nats-server's default fsync)`,
    table([
      ['servers', 'fsync', 'put p50 ms', 'put p99 ms', 'write→cache p50 ms', 'write→cache p99 ms', 'burst puts/s'],
      ...rows.map((r) => [
        r.servers,
        r.sync === 'default' ? 'default (2m)' : r.sync,
        `${r.put.p50.toFixed(2)} (${ratio(r.put.p50, base.put.p50)})`,
        `${r.put.p99.toFixed(2)} (${ratio(r.put.p99, base.put.p99)})`,
        `${r.toCache.p50.toFixed(1)} (${ratio(r.toCache.p50, base.toCache.p50)})`,
        `${r.toCache.p99.toFixed(1)} (${ratio(r.toCache.p99, base.toCache.p99)})`,
        `${r.burstPerSec.toFixed(0)} (${ratio(r.burstPerSec, base.burstPerSec)})`,
      ]),
    ]),
  ].join('\n');
}
