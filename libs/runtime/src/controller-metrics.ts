import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The outcome of one reconcile, as labelled in `controller_runtime_reconcile_total`. */
export type ReconcileOutcome = 'success' | 'error' | 'requeue_after' | 'requeue';

const OUTCOMES: readonly ReconcileOutcome[] = ['success', 'error', 'requeue_after', 'requeue'];

interface Collectors {
  total: Counter<'controller' | 'result'>;
  errors: Counter<'controller'>;
  terminal: Counter<'controller'>;
  time: Histogram<'controller'>;
  maxConcurrent: Gauge<'controller'>;
  active: Gauge<'controller'>;
}

const perRegistry = new WeakMap<Registry, Collectors>();

// controller-runtime's reconcile_time buckets
const RECONCILE_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25,
  1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

function collectors(registry: Registry): Collectors {
  const existing = perRegistry.get(registry);
  if (existing) return existing;
  const registers = [registry];
  const created: Collectors = {
    total: new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    }),
    errors: new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    terminal: new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    time: new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: RECONCILE_BUCKETS,
      registers,
    }),
    maxConcurrent: new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Maximum number of concurrent reconciles per controller',
      labelNames: ['controller'],
      registers,
    }),
    active: new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'],
      registers,
    }),
  };
  perRegistry.set(registry, created);
  return created;
}

/** The hooks one controller calls. */
export interface ControllerMetrics {
  outcome(outcome: ReconcileOutcome, opts?: { terminal?: boolean }): void;
  reconcileSeconds(seconds: number): void;
  workerBusy(delta: 1 | -1): void;
}

/**
 * Registers controller-runtime's controller metrics on `registry` (once per registry) and
 * returns one controller's hooks, with every series initialised (zero counters, the worker
 * count) as controller-runtime does at start.
 */
export function controllerMetrics(
  registry: Registry,
  controller: string,
  maxConcurrent: number,
): ControllerMetrics {
  const c = collectors(registry);
  const labels = { controller };
  for (const result of OUTCOMES) c.total.inc({ controller, result }, 0);
  c.errors.inc(labels, 0);
  c.terminal.inc(labels, 0);
  c.maxConcurrent.set(labels, maxConcurrent);
  c.active.set(labels, 0);
  return {
    outcome: (result, opts) => {
      c.total.inc({ controller, result });
      if (result === 'error') c.errors.inc(labels);
      if (opts?.terminal) c.terminal.inc(labels);
    },
    reconcileSeconds: (s) => c.time.observe(labels, s),
    workerBusy: (delta) => c.active.inc(labels, delta),
  };
}

export const noControllerMetrics: ControllerMetrics = {
  outcome: () => undefined,
  reconcileSeconds: () => undefined,
  workerBusy: () => undefined,
};
