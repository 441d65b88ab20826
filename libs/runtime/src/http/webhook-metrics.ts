import type { Server } from 'node:https';
import { Counter, Histogram, type Registry } from 'prom-client';

/**
 * The webhook server's own account, for telling its share of an admission call from the API server's (benchmark 8a,
 * docs/benchmarks-sidecarset.md): TLS connections it accepted (one per call means the caller does not keep its connection) and
 * each request's time in the server, headers received → answer ready to be written. Names after
 * controller-runtime's webhook metrics (`controller_runtime_webhook_latency_seconds`), with finer buckets: a request
 * takes a fraction of a millisecond here.
 */
interface Collectors {
  connections: Counter;
  latency: Histogram<'webhook'>;
}

const perRegistry = new WeakMap<Registry, Collectors>();

/** Seconds; below 1 ms in steps a quarter-millisecond handler can be told from a millisecond one. */
export const WEBHOOK_LATENCY_BUCKETS = [
  0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

function collectors(registry: Registry): Collectors {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const created: Collectors = {
    connections: new Counter({
      name: 'regatta_webhook_tls_connections_total',
      help: 'TLS connections the admission webhook server accepted (handshakes completed)',
      registers,
    }),
    latency: new Histogram({
      name: 'controller_runtime_webhook_latency_seconds',
      help: 'Time of an admission request in the webhook server, headers received to answer ready',
      labelNames: ['webhook'],
      buckets: WEBHOOK_LATENCY_BUCKETS,
      registers,
    }),
  };
  perRegistry.set(registry, created);
  return created;
}

/**
 * Counts `server`'s TLS connections on `registry`; returns the hook that starts timing a request (at its `request`
 * event) and the function that ends it, called once the answer is ready, before it is written: writing to a loopback
 * socket wakes the caller, which may take the core from this process before it reads a clock again, and on a busy
 * machine that wait would be counted as the server's.
 */
export function instrumentWebhookServer(server: Server, registry: Registry): (path: string) => () => void {
  const c = collectors(registry);
  server.on('secureConnection', () => c.connections.inc());
  return (path) => c.latency.startTimer({ webhook: path });
}
