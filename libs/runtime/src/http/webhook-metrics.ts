import type { Server } from 'node:https';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/**
 * The webhook server's own account, for telling its share of an admission call from the API server's (benchmark 8a,
 * docs/benchmarks-sidecarset.md): TLS connections it accepted (one per call means the caller does not keep its connection) and
 * each request's time in the server, headers received → answer ready to be written. Names after
 * controller-runtime's webhook metrics (`controller_runtime_webhook_latency_seconds`), with finer buckets: a request
 * takes a fraction of a millisecond here. Requests by HTTP status and in flight as controller-runtime counts them, and
 * Regatta's `regatta_webhook_admissions_total` by the kind and operation reviewed and the answer's code.
 */
interface Collectors {
  connections: Counter;
  latency: Histogram<'webhook'>;
  requests: Counter<'webhook' | 'code'>;
  inFlight: Gauge<'webhook'>;
  admissions: Counter<'webhook' | 'kind' | 'operation' | 'code'>;
}

/** What an admission request was about and how it was answered (`code` 200 when allowed, else the denial's). */
export interface WebhookAnswer {
  kind: string;
  operation: string;
  code: number;
}

/** Ends a request's account: the HTTP status written, and the admission answer when there was one. */
export type EndWebhookRequest = (httpCode: number, answer?: WebhookAnswer) => void;

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
    requests: new Counter({
      name: 'controller_runtime_webhook_requests_total',
      help: 'Admission webhook requests by HTTP status code',
      labelNames: ['webhook', 'code'],
      registers,
    }),
    inFlight: new Gauge({
      name: 'controller_runtime_webhook_requests_in_flight',
      help: 'Admission webhook requests being served',
      labelNames: ['webhook'],
      registers,
    }),
    admissions: new Counter({
      name: 'regatta_webhook_admissions_total',
      help: 'Admission reviews answered, by the kind and operation reviewed and the answer (200 allowed, else the denial code)',
      labelNames: ['webhook', 'kind', 'operation', 'code'],
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
export function instrumentWebhookServer(server: Server, registry: Registry): (path: string) => EndWebhookRequest {
  const c = collectors(registry);
  server.on('secureConnection', () => c.connections.inc());
  return (path) => {
    const stop = c.latency.startTimer({ webhook: path });
    c.inFlight.inc({ webhook: path });
    return (httpCode, answer) => {
      stop();
      c.inFlight.dec({ webhook: path });
      c.requests.inc({ webhook: path, code: String(httpCode) });
      if (answer)
        c.admissions.inc({ webhook: path, kind: answer.kind, operation: answer.operation, code: String(answer.code) });
    };
  };
}
