/**
 * Metrics every program exposes besides controller-runtime's (docs/operations.md "HA, probes and metrics"):
 * - `leader_election_master_status{name}`: 1 while this process holds the program's Lease, as controller-runtime
 *   names it;
 * - `regatta_bus_event_lag_seconds{cache}`: from the watcher seeing a change on the API server (the envelope's
 *   `observedAt`) to this program's cache applying it, per cache;
 * - per workload of a declared For kind (Argo Rollouts' `rollout_info` and `rollout_info_replicas_*`):
 *   `regatta_rollout_info{kind,namespace,name,phase}` 1, and `regatta_rollout_replicas_{desired,updated,ready,
 *   available}{kind,namespace,name}`, computed from the cache at each scrape, by the leader only (a standby's caches
 *   hold the same objects; one series per workload per installation).
 */
import type { Change, KubeObject } from '@regatta/kube';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { RolloutSample } from './declaration.js';

/** A For kind whose rollouts are exposed: its objects, and their projection (a declaration's `rolloutMetrics`). */
export interface RolloutSource {
  /** `CloneSet`, the `kind` label. */
  kind: string;
  reader: { list(): KubeObject[] };
  project: (obj: KubeObject) => RolloutSample;
}

/** What the metrics read: whether this process leads, the caches' change streams by cache name, the rollouts. */
export interface ProgramMetricSources {
  program: string;
  isLeader: () => boolean;
  caches: ReadonlyMap<string, { onChange(fn: (c: Change) => void): unknown }>;
  rollouts?: readonly RolloutSource[];
}

type RolloutLabels = { kind: string; namespace: string; name: string };

/** Every workload's labels and sample, while this process leads. */
function* samples(s: ProgramMetricSources): Generator<[RolloutLabels, RolloutSample]> {
  if (!s.isLeader()) return;
  for (const r of s.rollouts ?? []) {
    for (const obj of r.reader.list()) {
      const labels = { kind: r.kind, namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
      yield [labels, r.project(obj)];
    }
  }
}

/** A gauge per workload whose value a sample gives (undefined: no series). */
function replicaGauge(
  registry: Registry,
  s: ProgramMetricSources,
  field: 'desired' | 'updated' | 'ready' | 'available',
  help: string,
): void {
  new Gauge({
    name: `regatta_rollout_replicas_${field}`,
    help,
    labelNames: ['kind', 'namespace', 'name'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, sample] of samples(s)) {
        const v = sample[field];
        if (v !== undefined) this.set(labels, v);
      }
    },
  });
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
  if (!s.rollouts?.length) return;
  new Gauge({
    name: 'regatta_rollout_info',
    help: 'Information about a workload rollout; phase is Progressing, Paused, Completed or Degraded',
    labelNames: ['kind', 'namespace', 'name', 'phase'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, sample] of samples(s)) this.set({ ...labels, phase: sample.phase }, 1);
    },
  });
  replicaGauge(registry, s, 'desired', 'Pods a workload should run (a DaemonSet: nodes that should run one)');
  replicaGauge(registry, s, 'updated', "Pods at the workload's update revision");
  replicaGauge(registry, s, 'ready', 'Ready pods of the workload');
  replicaGauge(registry, s, 'available', 'Available pods of the workload (kinds that count them)');
}
