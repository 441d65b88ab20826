/**
 * Metrics every program exposes besides controller-runtime's (docs/operations.md "HA, probes and metrics"):
 * - `leader_election_master_status{name}`: 1 while this process holds the program's Lease, as controller-runtime
 *   names it;
 * - `regatta_bus_event_lag_seconds{cache}`: from the watcher seeing a change on the API server (the envelope's
 *   `observedAt`) to this program's cache applying it, per cache.
 */
import type { Change } from '@regatta/kube';
import { Gauge, Histogram, type Registry } from 'prom-client';

/** What the metrics read: whether this process leads, and the caches' change streams by cache name. */
export interface ProgramMetricSources {
  program: string;
  isLeader: () => boolean;
  caches: ReadonlyMap<string, { onChange(fn: (c: Change) => void): unknown }>;
}

/** Lag buckets from 1 ms to ~16 s: a healthy bus sits in the first few, a stalled one shows in the last. */
const LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16];

export function registerProgramMetrics(registry: Registry, s: ProgramMetricSources): void {
  new Gauge({
    name: 'leader_election_master_status',
    help: 'Whether this process is the leader (1) or a standby (0) of the named Lease',
    labelNames: ['name'],
    registers: [registry],
    collect() {
      this.set({ name: s.program }, s.isLeader() ? 1 : 0);
    },
  });
  const lag = new Histogram({
    name: 'regatta_bus_event_lag_seconds',
    help: "From the watcher's API watch event to this program's cache applying it, per cache",
    labelNames: ['cache'],
    buckets: LAG_BUCKETS,
    registers: [registry],
  });
  for (const [cache, source] of s.caches)
    source.onChange((c) => {
      if (c.lagMs !== undefined) lag.observe({ cache }, Math.max(0, c.lagMs) / 1000);
    });
}
