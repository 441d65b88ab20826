import { randomUUID } from 'node:crypto';
import type { Registry } from 'prom-client';
import { systemClock, type Clock } from './clock.js';
import { controllerMetrics, noControllerMetrics, type ControllerMetrics } from './controller-metrics.js';
import { AlreadyStartedError, InvalidOptionsError } from './errors.js';
import { silentLogger, type Logger } from './logger.js';
import type { RateLimiter } from './queue/rate-limiter.js';
import { WorkQueue, type Priority } from './queue/work-queue.js';
import {
  isTerminalError,
  parseRequestKey,
  requestKey,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from './reconcile.js';
import type { Runnable } from './runnable.js';

export interface ControllerOptions {
  /** Names the controller in logs and metrics (`controller` label) and its queue. */
  name: string;
  reconciler: Reconciler;
  /** Workers reconciling in parallel (never the same key twice at once). Default 1. */
  maxConcurrentReconciles?: number;
  /** Default: client-go's default controller rate limiter (5 ms → 1000 s per item, 10 qps / 100 burst). */
  rateLimiter?: RateLimiter;
  /** Where controller and workqueue metrics are registered; none when omitted. */
  registry?: Registry;
  logger?: Logger;
  /** Aborts `ctx.signal` of a reconcile that runs longer than this. Default: no limit. */
  reconciliationTimeoutMs?: number;
  /** Default true: the manager starts the workers only on the elected leader. */
  needLeaderElection?: boolean;
  clock?: Clock;
}

/**
 * A controller: a work queue of request keys and N workers reconciling them (controller-runtime's
 * internal `Controller`). Event handlers call `enqueue`; keys queued before `start` (for example
 * while waiting for leadership) are processed once the workers run.
 *
 * Each key taken from the queue ends in exactly one of four ways, each counted in
 * `controller_runtime_reconcile_total{result}`:
 * - error → `addRateLimited` (not for a {@link TerminalError}: logged, counted, forgotten);
 * - `requeueAfterMs` → `forget` + `addAfter`;
 * - `requeue` → `addRateLimited`;
 * - success → `forget`;
 * and is always passed to `done`.
 */
export class Controller implements Runnable {
  readonly name: string;
  readonly queue: WorkQueue;
  readonly maxConcurrentReconciles: number;
  readonly #reconciler: Reconciler;
  readonly #log: Logger;
  readonly #metrics: ControllerMetrics;
  readonly #timeoutMs: number | undefined;
  readonly #needLeaderElection: boolean;
  readonly #clock: Clock;
  #started = false;
  #inFlight = 0;

  constructor(options: ControllerOptions) {
    const workers = options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(workers) || workers < 1) {
      throw new InvalidOptionsError(
        `controller '${options.name}'`,
        'maxConcurrentReconciles must be an integer ≥ 1',
      );
    }
    this.name = options.name;
    this.maxConcurrentReconciles = workers;
    this.#reconciler = options.reconciler;
    this.#clock = options.clock ?? systemClock;
    this.#log = (options.logger ?? silentLogger).child({ controller: options.name });
    this.#timeoutMs = options.reconciliationTimeoutMs;
    this.#needLeaderElection = options.needLeaderElection ?? true;
    this.queue = new WorkQueue({
      name: options.name,
      clock: this.#clock,
      ...(options.rateLimiter && { rateLimiter: options.rateLimiter }),
      ...(options.registry && { registry: options.registry }),
    });
    this.#metrics = options.registry
      ? controllerMetrics(options.registry, options.name, workers)
      : noControllerMetrics;
  }

  needLeaderElection(): boolean {
    return this.#needLeaderElection;
  }

  /**
   * Queues a reconcile of `req` (de-duplicated with any pending one) at `priority` (default `normal`): `low` after
   * every other queued one (an object of the initial list), `high` before them (an object being deleted):
   * {@link WorkQueue.add}.
   */
  enqueue(req: Request, options: { priority?: Priority } = {}): void {
    this.queue.add(requestKey(req), options);
  }

  /** Queues a reconcile of `req` after `ms`. */
  enqueueAfter(req: Request, ms: number): void {
    this.queue.addAfter(requestKey(req), ms);
  }

  /**
   * Runs the workers until `signal` aborts. Stopping shuts the queue down (queued keys are
   * dropped), aborts `ctx.signal` of in-flight reconciles and resolves once they have returned.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#started) throw new AlreadyStartedError(`controller '${this.name}'`);
    this.#started = true;
    this.#log.info({ workers: this.maxConcurrentReconciles }, 'starting workers');
    const workers = Array.from({ length: this.maxConcurrentReconciles }, () => this.#work(signal));
    if (!signal.aborted) {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    }
    this.#log.info({ inFlight: this.#inFlight }, 'stopping: waiting for in-flight reconciles');
    await this.queue.shutDownWithDrain();
    await Promise.all(workers);
    this.#log.info('all workers finished');
  }

  async #work(signal: AbortSignal): Promise<void> {
    for (;;) {
      const item = await this.queue.get();
      if (item.shutdown) return;
      this.#inFlight++;
      this.#metrics.workerBusy(1);
      try {
        await this.#reconcileHandler(item.key, signal);
      } finally {
        this.#metrics.workerBusy(-1);
        this.#inFlight--;
        this.queue.done(item.key);
      }
    }
  }

  async #reconcileHandler(key: string, stop: AbortSignal): Promise<void> {
    const req = parseRequestKey(key);
    const reconcileID = randomUUID();
    const log = this.#log.child({
      ...(req.namespace && { namespace: req.namespace }),
      name: req.name,
      reconcileID,
    });
    const signal =
      this.#timeoutMs === undefined ? stop : AbortSignal.any([stop, AbortSignal.timeout(this.#timeoutMs)]);
    const ctx: ReconcileContext = { reconcileID, log, signal };
    const started = this.#clock();
    let result: Result;
    try {
      log.debug('reconciling');
      // `then` also turns a synchronous throw into a rejection
      result = await Promise.resolve().then(() => this.#reconciler.reconcile(req, ctx));
    } catch (err) {
      this.#metrics.reconcileSeconds((this.#clock() - started) / 1000);
      this.#onError(key, err, log, stop);
      return;
    }
    this.#metrics.reconcileSeconds((this.#clock() - started) / 1000);
    const after = result.requeueAfterMs ?? 0;
    if (after > 0) {
      log.debug({ requeueAfterMs: after }, 'reconcile done, requeueing after a delay');
      this.queue.forget(key);
      this.queue.addAfter(key, after);
      this.#metrics.outcome('requeue_after');
    } else if (result.requeue) {
      log.debug('reconcile done, requeueing with back-off');
      this.queue.addRateLimited(key);
      this.#metrics.outcome('requeue');
    } else {
      log.debug('reconcile succeeded');
      this.queue.forget(key);
      this.#metrics.outcome('success');
    }
  }

  #onError(key: string, err: unknown, log: Logger, stop: AbortSignal): void {
    if (isTerminalError(err)) {
      this.queue.forget(key);
      this.#metrics.outcome('error', { terminal: true });
      log.error({ err }, 'reconciler error (terminal, not retried)');
      return;
    }
    this.queue.addRateLimited(key);
    this.#metrics.outcome('error');
    if (stop.aborted) log.debug({ err }, 'reconcile interrupted by shutdown');
    else log.error({ err, retries: this.queue.numRequeues(key) }, 'reconciler error; retrying with back-off');
  }
}
