/**
 * The metrics of a program's two clients (docs/operations.md "HA, probes and metrics"):
 * - the API server's, as client-go names them: `rest_client_requests_total{code,method}` (code `<error>` when no
 *   answer came) and `rest_client_request_duration_seconds{verb}`;
 * - the NATS connection's: `regatta_nats_connected`, `regatta_nats_disconnects_total`,
 *   `regatta_nats_reconnects_total`, and the messages and bytes it moved (`regatta_nats_{in,out}_{messages,bytes}_total`,
 *   read from the client's own counters at each scrape). The bus's lag and backlog per cache are the kit's
 *   `regatta_bus_event_lag_seconds` and `regatta_cache_pending_changes`.
 */
import type { Bus } from '@regatta/bus';
import type { KubeResponse } from '@regatta/kube';
import type { Logger } from '@regatta/runtime';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** API-server latency buckets, as client-go's (5 ms to 60 s). */
const REST_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];

/** The observer a KubeClient takes (`onResponse`), counting into `registry`. */
export function restClientMetrics(registry: Registry): (r: KubeResponse) => void {
  const requests = new Counter({
    name: 'rest_client_requests_total',
    help: 'API server requests by HTTP status code (<error>: no answer) and method',
    labelNames: ['code', 'method'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'rest_client_request_duration_seconds',
    help: 'API server request latency by verb',
    labelNames: ['verb'],
    buckets: REST_BUCKETS,
    registers: [registry],
  });
  return (r) => {
    requests.inc({ code: r.code === undefined ? '<error>' : String(r.code), method: r.method });
    duration.observe({ verb: r.method }, r.seconds);
  };
}

/** A counter whose value is read from the client at each scrape. */
function readCounter(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

/** The NATS connection's metrics; follows its status events until it closes. */
export function registerNatsMetrics(registry: Registry, nc: Bus['nc'], log: Logger): void {
  const disconnects = new Counter({
    name: 'regatta_nats_disconnects_total',
    help: 'Times the NATS connection was lost',
    registers: [registry],
  });
  const reconnects = new Counter({
    name: 'regatta_nats_reconnects_total',
    help: 'Times the NATS connection was made again after a loss',
    registers: [registry],
  });
  let connected = true;
  new Gauge({
    name: 'regatta_nats_connected',
    help: 'Whether the NATS connection is up (1) or lost or closed (0)',
    registers: [registry],
    collect() {
      this.set(connected && !nc.isClosed() ? 1 : 0);
    },
  });
  readCounter(registry, 'regatta_nats_in_messages_total', 'Messages received from NATS', () => nc.stats().inMsgs);
  readCounter(registry, 'regatta_nats_out_messages_total', 'Messages sent to NATS', () => nc.stats().outMsgs);
  readCounter(registry, 'regatta_nats_in_bytes_total', 'Bytes received from NATS', () => nc.stats().inBytes);
  readCounter(registry, 'regatta_nats_out_bytes_total', 'Bytes sent to NATS', () => nc.stats().outBytes);
  void (async () => {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') {
        connected = false;
        disconnects.inc();
      } else if (s.type === 'reconnect') {
        connected = true;
        reconnects.inc();
      }
    }
  })().catch((err: unknown) => log.warn({ err }, 'NATS status events ended with an error; the NATS metrics stop'));
}
