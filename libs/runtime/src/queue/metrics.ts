import { Counter, exponentialBuckets, Gauge, Histogram, type Registry } from 'prom-client';

/** What a queue reports at scrape time. */
export interface QueueGaugeSource {
  readonly name: string;
  /** Items waiting to be handed to a worker (including ones re-added while being processed). */
  depth(): number;
  /** Of those, the ones waiting at low priority (objects of the initial list not changed since; WorkQueue.add). */
  lowPriorityDepth(): number;
  /** Seconds of work in progress not yet observed by `work_duration` (sum over in-flight items). */
  unfinishedWorkSeconds(): number;
  /** Seconds the oldest in-flight item has been processed for. */
  longestRunningProcessorSeconds(): number;
}

/** The hooks a queue calls as items move through it. */
export interface QueueMetrics {
  added(): void;
  /** The item waited `seconds` between being added and being handed out. */
  queued(seconds: number): void;
  /** A worker processed the item for `seconds`. */
  worked(seconds: number): void;
  retried(): void;
  /** The queue shut down; its gauges stop being reported. */
  close(): void;
}

interface WorkqueueCollectors {
  adds: Counter<'name' | 'controller'>;
  latency: Histogram<'name' | 'controller'>;
  workDuration: Histogram<'name' | 'controller'>;
  retries: Counter<'name' | 'controller'>;
  sources: Set<QueueGaugeSource>;
}

const perRegistry = new WeakMap<Registry, WorkqueueCollectors>();

// 10 ns … 1000 s, as controller-runtime's workqueue histograms
const DURATION_BUCKETS = exponentialBuckets(10e-9, 10, 12);
const LABELS = ['name', 'controller'] as const;

function scrapedGauge(
  registry: Registry,
  sources: Set<QueueGaugeSource>,
  name: string,
  help: string,
  read: (s: QueueGaugeSource) => number,
): void {
  new Gauge({
    name,
    help,
    labelNames: LABELS,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of sources) this.set({ name: s.name, controller: s.name }, read(s));
    },
  });
}

function collectors(registry: Registry): WorkqueueCollectors {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const sources = new Set<QueueGaugeSource>();
  const registers = [registry];
  const created: WorkqueueCollectors = {
    sources,
    adds: new Counter({
      name: 'workqueue_adds_total',
      help: 'Total number of adds handled by workqueue',
      labelNames: LABELS,
      registers,
    }),
    latency: new Histogram({
      name: 'workqueue_queue_duration_seconds',
      help: 'How long in seconds an item stays in workqueue before being requested',
      labelNames: LABELS,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    workDuration: new Histogram({
      name: 'workqueue_work_duration_seconds',
      help: 'How long in seconds processing an item from workqueue takes.',
      labelNames: LABELS,
      buckets: DURATION_BUCKETS,
      registers,
    }),
    retries: new Counter({
      name: 'workqueue_retries_total',
      help: 'Total number of retries handled by workqueue',
      labelNames: LABELS,
      registers,
    }),
  };
  scrapedGauge(registry, sources, 'workqueue_depth', 'Current depth of workqueue', (s) => s.depth());
  // Regatta's own: controller-runtime's priority queue labels workqueue_depth by priority instead; a separate gauge
  // keeps the standard series as they are
  scrapedGauge(
    registry,
    sources,
    'regatta_workqueue_low_priority_depth',
    'How many of the items in workqueue_depth wait at low priority (objects of the initial list)',
    (s) => s.lowPriorityDepth(),
  );
  scrapedGauge(
    registry,
    sources,
    'workqueue_unfinished_work_seconds',
    "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. " +
      'Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.',
    (s) => s.unfinishedWorkSeconds(),
  );
  scrapedGauge(
    registry,
    sources,
    'workqueue_longest_running_processor_seconds',
    'How many seconds has the longest running processor for workqueue been running.',
    (s) => s.longestRunningProcessorSeconds(),
  );
  perRegistry.set(registry, created);
  return created;
}

/**
 * Registers the workqueue metrics on `registry` (once per registry, shared by all queues) and
 * returns the hooks for one queue. Names and labels follow controller-runtime (`name` and
 * `controller` both carry the queue name). Gauges are computed when scraped, so they never drift.
 */
export function workqueueMetrics(registry: Registry, source: QueueGaugeSource): QueueMetrics {
  const c = collectors(registry);
  c.sources.add(source);
  const labels = { name: source.name, controller: source.name };
  c.adds.inc(labels, 0);
  c.retries.inc(labels, 0);
  return {
    added: () => c.adds.inc(labels),
    queued: (s) => c.latency.observe(labels, s),
    worked: (s) => c.workDuration.observe(labels, s),
    retried: () => c.retries.inc(labels),
    close: () => c.sources.delete(source),
  };
}

export const noQueueMetrics: QueueMetrics = {
  added: () => undefined,
  queued: () => undefined,
  worked: () => undefined,
  retried: () => undefined,
  close: () => undefined,
};
