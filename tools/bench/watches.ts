// Benchmark 1: how many WATCH requests on pods the API server serves when N controllers cache pods,
// through Regatta (one watcher, N bus caches) and with N direct client-node informers. Read from the
// API server's own gauge apiserver_longrunning_requests{verb="WATCH",resource="pods"} (1.36 no longer
// has apiserver_registered_watchers).
import { CoreV1Api, KubeConfig, makeInformer, type Informer, type V1Pod } from '@kubernetes/client-node';
import { KINDS } from '@regatta/api';
import { Cache, connectBus, registerKinds, type Bus } from '@regatta/bus';
import type { KubeClient } from '@regatta/kube';
import { apiserverMetric, sleep, table } from './common.js';

export interface WatchesResult {
  /** Pod watches open before the benchmark added any (the API server's own loopback clients). */
  background: number;
  /** busConsumers: consumers on the pods mirror stream (where Regatta's fan-out went), from nats-server's /jsz. */
  rows: { controllers: number; regatta: number; busConsumers: number; direct: number }[];
}

interface Ctx {
  client: KubeClient;
  kubeconfig: string;
  nats: string;
  natsMonitor: string;
  prefix: string;
  counts: number[];
  log: (line: string) => void;
}

const podWatches = async (client: KubeClient) =>
  (await apiserverMetric(client, 'apiserver_longrunning_requests', { verb: 'WATCH', resource: 'pods' })).sum;

/** Consumers of a JetStream stream (a KV bucket `b` is stream `KV_b`), from the monitoring endpoint. */
async function streamConsumers(monitor: string, stream: string): Promise<number> {
  try {
    const res = await fetch(`${monitor}/jsz?accounts=true&streams=true&consumers=true`);
    const jsz = (await res.json()) as {
      account_details?: { stream_detail?: { name: string; consumer_detail?: unknown[] }[] }[];
    };
    for (const a of jsz.account_details ?? [])
      for (const s of a.stream_detail ?? []) if (s.name === stream) return s.consumer_detail?.length ?? 0;
    return 0;
  } catch {
    return NaN;
  }
}

/**
 * Waits until the gauge has reached `atLeast` (bounded) and then held one value for `stableMs`:
 * watches open asynchronously after a cache or informer reports itself synced.
 */
async function settled(
  client: KubeClient,
  atLeast: number,
  stableMs = 2000,
  timeoutMs = 20_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let value = await podWatches(client);
  while (value < atLeast && Date.now() < deadline) {
    await sleep(250);
    value = await podWatches(client);
  }
  let since = Date.now();
  while (Date.now() < deadline) {
    await sleep(250);
    const v = await podWatches(client);
    if (v !== value) {
      value = v;
      since = Date.now();
    } else if (Date.now() - since >= stableMs) break;
  }
  return value;
}

export async function benchWatches(ctx: Ctx): Promise<WatchesResult> {
  const { client, log } = ctx;
  const background = await settled(client, 0);
  log(`pod watches before the benchmark: ${background}`);
  const regatta = new Map<number, number>();
  const consumers = new Map<number, number>();
  const direct = new Map<number, number>();

  // Regatta: each "controller" is its own bus connection that registers pods and runs a Cache.
  const controllers: { bus: Bus; cache: Cache; reg: { stop(): Promise<void> } }[] = [];
  try {
    for (const n of ctx.counts) {
      while (controllers.length < n) {
        const i = controllers.length;
        const bus = await connectBus({
          servers: ctx.nats,
          name: `bench-controller-${i}`,
          prefix: ctx.prefix,
        });
        const reg = await registerKinds(bus, 'bench', `bench-${i}`, [KINDS.pods]);
        const cache = new Cache(bus, KINDS.pods);
        controllers.push({ bus, cache, reg });
        await cache.start();
      }
      const v = (await settled(client, background + 1)) - background;
      regatta.set(n, v);
      const c = await streamConsumers(ctx.natsMonitor, `KV_${controllers[0]!.cache.bucket}`);
      consumers.set(n, c);
      log(
        `regatta, ${n} controller(s) caching pods: ${v} pod watch(es) on the API server, ${c} consumer(s) on the bus`,
      );
    }
  } finally {
    for (const c of controllers) {
      await c.cache.stop();
      await c.reg.stop();
      await c.bus.close();
    }
  }
  // the watcher stops its pod watch once no registration needs pods any more
  const before = Date.now();
  let now = await podWatches(client);
  while (now > background && Date.now() - before < 45_000) {
    await sleep(500);
    now = await podWatches(client);
  }
  log(`after the controllers left: ${now} pod watch(es) (${((Date.now() - before) / 1000).toFixed(1)} s)`);
  const base2 = now;

  // Direct: each "controller" is its own KubeConfig (own connection pool) and client-node informer.
  const informers: Informer<V1Pod>[] = [];
  let stopping = false;
  try {
    for (const n of ctx.counts) {
      while (informers.length < n) {
        const kc = new KubeConfig();
        kc.loadFromFile(ctx.kubeconfig);
        const core = kc.makeApiClient(CoreV1Api);
        const inf = makeInformer<V1Pod>(kc, '/api/v1/pods', () => core.listPodForAllNamespaces());
        inf.on('error', (err) => {
          if (!stopping) log(`direct informer error: ${String(err)}`);
        });
        informers.push(inf);
        await inf.start();
      }
      const v = (await settled(client, base2 + n)) - base2;
      direct.set(n, v);
      log(`direct, ${n} informer(s) on pods: ${v} pod watch(es) on the API server`);
    }
  } finally {
    stopping = true;
    for (const inf of informers) await inf.stop();
  }
  return {
    background,
    rows: ctx.counts.map((n) => ({
      controllers: n,
      regatta: regatta.get(n) ?? NaN,
      busConsumers: consumers.get(n) ?? NaN,
      direct: direct.get(n) ?? NaN,
    })),
  };
}

export function reportWatches(r: WatchesResult): string {
  const first = r.rows[0]!;
  return [
    'Pod WATCH requests the API server serves for N controllers caching pods',
    `(apiserver_longrunning_requests{verb="WATCH",resource="pods"} minus the ${r.background} open before the benchmark)`,
    '',
    table([
      [
        'controllers',
        'regatta',
        'direct informers',
        'regatta / direct',
        `regatta / regatta@${first.controllers}`,
        'regatta bus consumers',
      ],
      ...r.rows.map((x) => [
        x.controllers,
        x.regatta,
        x.direct,
        x.direct > 0 ? (x.regatta / x.direct).toFixed(2) : 'n/a',
        first.regatta > 0 ? (x.regatta / first.regatta).toFixed(2) : 'n/a',
        x.busConsumers,
      ]),
    ]),
  ].join('\n');
}
