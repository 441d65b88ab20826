// Benchmark 2, observer process: a controller's cache of ConfigMaps, either Regatta's (a bus Cache fed
// by the watcher) or a direct client-node informer. For every update of the benchmark namespace it
// records now − data.t (the writer's send time), bucketed by data.phase.
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { KINDS } from '@regatta/api';
import { Cache, connectBus, registerKinds, type KubeObject } from '@regatta/bus';
import { nowMs, serve } from './common.js';

type Data = { t?: string; phase?: string } | undefined;

const samples = new Map<string, number[]>();
/** `name@t` of each sample, so the orchestrator can pair the two observers' samples write by write. */
const keys = new Map<string, string[]>();
const lags = new Map<string, number[]>();
const push = <T>(m: Map<string, T[]>, k: string, v: T) => {
  let a = m.get(k);
  if (!a) m.set(k, (a = []));
  a.push(v);
};
let stop: () => Promise<void> = async () => undefined;

function record(
  meta: { namespace?: string; name?: string } | undefined,
  data: Data,
  seenAt: number,
  lagMs?: number,
): void {
  if (meta?.namespace !== ns || !data?.t || !data.phase) return;
  push(samples, data.phase, seenAt - Number(data.t));
  push(keys, data.phase, `${meta.name}@${data.t}`);
  if (lagMs !== undefined) push(lags, data.phase, lagMs);
}

let ns = '';

serve({
  async start(p: {
    mode: 'regatta' | 'direct';
    kubeconfig: string;
    nats: string;
    prefix: string;
    namespace: string;
  }) {
    ns = p.namespace;
    if (p.mode === 'regatta') {
      const bus = await connectBus({ servers: p.nats, name: 'bench-latency-regatta', prefix: p.prefix });
      const reg = await registerKinds(bus, 'bench-latency', 'observer', [KINDS.configmaps]);
      const cache = new Cache<KubeObject & { data?: Data }>(bus, KINDS.configmaps);
      cache.onChange((c) => {
        if (c.type !== 'update') return;
        record(c.object.metadata, c.object.data, nowMs(), c.lagMs);
      });
      await cache.start();
      stop = async () => {
        await cache.stop();
        await reg.stop();
        await bus.close();
      };
    } else {
      const kc = new KubeConfig();
      kc.loadFromFile(p.kubeconfig);
      const core = kc.makeApiClient(CoreV1Api);
      const inf = makeInformer<V1ConfigMap>(kc, '/api/v1/configmaps', () =>
        core.listConfigMapForAllNamespaces(),
      );
      inf.on('update', (o) => record(o.metadata, o.data as Data, nowMs()));
      let stopping = false;
      inf.on('error', (err) => {
        if (!stopping) console.error(`direct informer error: ${String(err)}`);
      });
      await inf.start();
      stop = () => {
        stopping = true;
        return inf.stop();
      };
    }
    return { ok: true };
  },
  /** Samples of one phase (and forgets them). */
  take(p: { phase: string }) {
    const out = {
      latencies: samples.get(p.phase) ?? [],
      keys: keys.get(p.phase) ?? [],
      lags: lags.get(p.phase) ?? [],
    };
    samples.delete(p.phase);
    keys.delete(p.phase);
    lags.delete(p.phase);
    return out;
  },
  /** How many samples a phase has so far (to wait for the tail to arrive). */
  count(p: { phase: string }) {
    return samples.get(p.phase)?.length ?? 0;
  },
  async stop() {
    await stop();
    return { ok: true };
  },
});
