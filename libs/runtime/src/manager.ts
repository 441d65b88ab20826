import { systemClock, type Clock } from './clock.js';
import {
  AlreadyStartedError,
  CacheSyncTimeoutError,
  GracefulShutdownTimeoutError,
  LeaderElectionLostError,
  ManagerStartedError,
  RunnableFailedError,
} from './errors.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import { silentLogger, type Logger } from './logger.js';
import type { Checker, Runnable, SyncWaiter } from './runnable.js';

/** Where OS signals come from: `process` in production. */
export interface SignalSource {
  on(event: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
  off(event: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

/** A server with named health checks (the probe server fits). */
export interface ProbeRegistrar extends Runnable {
  addHealthzCheck(name: string, check: Checker): void;
  addReadyzCheck(name: string, check: Checker): void;
}

export interface ManagerOptions {
  logger?: Logger;
  /** Campaign for this Lease before starting runnables that need leader election. Omit to lead always. */
  leaderElection?: Omit<LeaderElectionOptions, 'callbacks' | 'logger'>;
  /** How long stopping may take, in total. Default 30 s (controller-runtime). */
  gracefulShutdownTimeoutMs?: number;
  /** How long caches may take to sync. Default 2 min (controller-runtime's CacheSyncTimeout). */
  cacheSyncTimeoutMs?: number;
  /** Stop gracefully on SIGTERM/SIGINT. Default true. */
  handleSignals?: boolean;
  /** Default `process`. */
  signalSource?: SignalSource;
  /** What a second signal does while stopping. Default: `process.exit(1)`. */
  onForcedExit?: () => void;
  /**
   * The probe server: added as a server runnable, with a `ping` liveness check, a `cache-sync`
   * readiness check, and the `startedCheck()` of every runnable added that has one (the webhook
   * server: ready once its certificates are loaded and it listens) registered on it.
   */
  probes?: ProbeRegistrar;
  clock?: Clock;
}

type Group = 'servers' | 'caches' | 'others' | 'leader';

interface Running {
  name: string;
  done: Promise<void>;
}

function isRunnable(x: Runnable | SyncWaiter): x is Runnable {
  return typeof (x as Partial<Runnable>).start === 'function';
}

function isSyncWaiter(x: Runnable | SyncWaiter): x is SyncWaiter {
  return typeof (x as Partial<SyncWaiter>).waitForSync === 'function';
}

/**
 * Owns the program's runnables and runs them in controller-runtime's order:
 * servers (probes, metrics, webhooks) → caches, then wait until they synced → other runnables
 * → leader election → runnables that need leader election (controllers), once elected.
 * Stopping (the signal, SIGTERM/SIGINT, a failed runnable, or lost leadership) goes in reverse:
 * leader runnables drain, the lease is released, then the others, caches and servers stop —
 * all within the graceful-shutdown timeout.
 *
 * `start` rejects with the first failure: a runnable that failed ({@link RunnableFailedError}),
 * caches that did not sync ({@link CacheSyncTimeoutError}), lost leadership
 * ({@link LeaderElectionLostError}: the process should exit and restart as a candidate) or a
 * shutdown that overran ({@link GracefulShutdownTimeoutError}).
 */
export class Manager {
  readonly #log: Logger;
  readonly #options: ManagerOptions;
  readonly #clock: Clock;
  readonly #groups: Record<Group, Runnable[]> = { servers: [], caches: [], others: [], leader: [] };
  readonly #syncWaiters: SyncWaiter[] = [];
  readonly #running: Record<Group, Running[]> = { servers: [], caches: [], others: [], leader: [] };
  readonly #stops: Record<Group, AbortController> = {
    servers: new AbortController(),
    caches: new AbortController(),
    others: new AbortController(),
    leader: new AbortController(),
  };
  #elector: LeaderElector | undefined;
  #started = false;
  #synced = false;
  #failure: Error | undefined;
  readonly #stop = new AbortController();
  #electedResolve!: () => void;
  /** Resolves once this process leads (at once without leader election). */
  readonly elected: Promise<void> = new Promise((resolve) => (this.#electedResolve = resolve));

  constructor(options: ManagerOptions = {}) {
    this.#options = options;
    this.#log = (options.logger ?? silentLogger).child({ component: 'manager' });
    this.#clock = options.clock ?? systemClock;
    if (options.probes) {
      this.add(options.probes);
      options.probes.addHealthzCheck('ping', () => undefined);
      options.probes.addReadyzCheck('cache-sync', this.cacheSyncCheck());
    }
  }

  /**
   * Adds a runnable, or a cache to wait for (anything with `waitForSync`; started first if it is
   * also a runnable). Only before `start`. Objects with a start/stop pair instead of a
   * signal-driven `start` go through `startStopRunnable` first.
   */
  add(item: Runnable | SyncWaiter): void {
    if (this.#started) throw new ManagerStartedError(item.name ?? 'cache');
    if (isSyncWaiter(item)) this.#syncWaiters.push(item);
    if (!isRunnable(item)) return;
    const startedCheck = (item as Partial<{ startedCheck(): Checker }>).startedCheck;
    if (this.#options.probes && typeof startedCheck === 'function' && item !== this.#options.probes) {
      this.#options.probes.addReadyzCheck(item.name, startedCheck.call(item));
    }
    const group: Group = item.isServer
      ? 'servers'
      : isSyncWaiter(item)
        ? 'caches'
        : item.needLeaderElection?.()
          ? 'leader'
          : 'others';
    this.#groups[group].push(item);
  }

  /** True once every cache has synced. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** Readiness: fails until caches have synced. */
  cacheSyncCheck(): Checker {
    return () => {
      if (!this.#synced) throw new Error('caches have not synced yet');
    };
  }

  isLeader(): boolean {
    return this.#options.leaderElection ? (this.#elector?.isLeader() ?? false) : this.#started;
  }

  /**
   * Whether the program may write to the API server now: false once it has led and its lease is stale or lost
   * (LeaderElector.mayWrite), so a paused leader that resumes writes nothing before it learns where it stands.
   */
  mayWrite(): boolean {
    return this.#elector?.mayWrite() ?? true;
  }

  /** Runs everything until `signal` aborts (or a signal/failure stops it); see the class comment. */
  async start(signal?: AbortSignal): Promise<void> {
    if (this.#started) throw new AlreadyStartedError('manager');
    this.#started = true;
    const unlink = this.#linkStopSources(signal);
    let electorDone: Promise<unknown> = Promise.resolve();
    const electorStop = new AbortController();
    try {
      this.#startGroup('servers');
      this.#startGroup('caches');
      await this.#waitForCaches();
      if (!this.#stop.signal.aborted) {
        this.#startGroup('others');
        electorDone = this.#startLeaderElection(electorStop.signal);
      }
      await abortedOf(this.#stop.signal);
      this.#log.info({ reason: describeReason(this.#stop.signal.reason) }, 'stopping');
      await this.#shutdown(electorStop, electorDone);
    } finally {
      unlink();
    }
    if (this.#failure) throw this.#failure;
    this.#log.info('stopped');
  }

  #fail(err: Error): void {
    if (!this.#failure) {
      this.#failure = err;
      this.#log.error({ err }, 'stopping after a failure');
    }
    this.#stop.abort(err);
  }

  #linkStopSources(signal: AbortSignal | undefined): () => void {
    const cleanups: (() => void)[] = [];
    if (signal) {
      const onAbort = (): void => this.#stop.abort(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener('abort', onAbort));
    }
    if (this.#options.handleSignals ?? true) {
      const source = this.#options.signalSource ?? process;
      let received = 0;
      const onSignal = (name: string) => (): void => {
        received++;
        if (received === 1) {
          this.#log.info({ signal: name }, 'signal received: shutting down gracefully');
          this.#stop.abort(new Error(`received ${name}`));
        } else {
          this.#log.error({ signal: name }, 'second signal received: exiting now');
          (this.#options.onForcedExit ?? (() => process.exit(1)))();
        }
      };
      const term = onSignal('SIGTERM');
      const int = onSignal('SIGINT');
      source.on('SIGTERM', term);
      source.on('SIGINT', int);
      cleanups.push(() => {
        source.off('SIGTERM', term);
        source.off('SIGINT', int);
      });
    }
    return () => cleanups.forEach((c) => c());
  }

  #startGroup(group: Group): void {
    const signal = this.#stops[group].signal;
    for (const r of this.#groups[group]) {
      this.#log.info({ runnable: r.name, group }, 'starting');
      const done = Promise.resolve()
        .then(() => r.start(signal))
        .then(
          () => {
            if (!signal.aborted)
              this.#fail(new RunnableFailedError(r.name, new Error('it returned before being stopped')));
          },
          (err: unknown) => this.#fail(new RunnableFailedError(r.name, err)),
        );
      this.#running[group].push({ name: r.name, done });
    }
  }

  async #waitForCaches(): Promise<void> {
    if (this.#syncWaiters.length === 0) {
      this.#synced = true;
      return;
    }
    const timeoutMs = this.#options.cacheSyncTimeoutMs ?? 120_000;
    const nameOf = (w: SyncWaiter, i: number): string => w.name ?? `cache-${i}`;
    const pending = new Set(this.#syncWaiters.map(nameOf));
    let timer: NodeJS.Timeout | undefined;
    const all = Promise.all(
      this.#syncWaiters.map((w, i) =>
        Promise.resolve()
          .then(() => w.waitForSync())
          .then(
            () => void pending.delete(nameOf(w, i)),
            (err: unknown) => this.#fail(new RunnableFailedError(nameOf(w, i), err)),
          ),
      ),
    );
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.#fail(new CacheSyncTimeoutError([...pending].join(', '), timeoutMs));
        resolve();
      }, timeoutMs);
    });
    await Promise.race([all, timeout, abortedOf(this.#stop.signal)]);
    clearTimeout(timer);
    if (pending.size === 0 && !this.#stop.signal.aborted) {
      this.#synced = true;
      this.#log.info({ caches: this.#syncWaiters.map(nameOf) }, 'caches synced');
    }
  }

  #startLeaderElection(stop: AbortSignal): Promise<unknown> {
    const le = this.#options.leaderElection;
    if (!le) {
      this.#startGroup('leader');
      this.#electedResolve();
      return Promise.resolve();
    }
    const elector = new LeaderElector({
      ...le,
      logger: this.#log,
      callbacks: {
        onStartedLeading: () => {
          if (this.#stop.signal.aborted) return;
          this.#startGroup('leader');
          this.#electedResolve();
        },
      },
    });
    this.#elector = elector;
    return elector.run(stop).then(
      (end) => {
        if (end === 'lost') this.#fail(new LeaderElectionLostError(elector.identity, elector.leaseName));
      },
      (err: unknown) => this.#fail(new RunnableFailedError('leader-election', err)),
    );
  }

  async #shutdown(electorStop: AbortController, electorDone: Promise<unknown>): Promise<void> {
    const timeoutMs = this.#options.gracefulShutdownTimeoutMs ?? 30_000;
    const deadline = this.#clock() + timeoutMs;
    const steps: { label: string; stop: () => void; wait: () => Running[] }[] = [
      { label: 'leader', stop: () => this.#stops.leader.abort(), wait: () => this.#running.leader },
      {
        label: 'leader-election',
        stop: () => electorStop.abort(),
        wait: () => [{ name: 'leader-election', done: electorDone.then(() => undefined) }],
      },
      { label: 'others', stop: () => this.#stops.others.abort(), wait: () => this.#running.others },
      { label: 'caches', stop: () => this.#stops.caches.abort(), wait: () => this.#running.caches },
      { label: 'servers', stop: () => this.#stops.servers.abort(), wait: () => this.#running.servers },
    ];
    for (const step of steps) {
      step.stop();
      const running = step.wait();
      const pending = new Set(running.map((r) => r.name));
      const finished = Promise.all(running.map((r) => r.done.then(() => void pending.delete(r.name))));
      const remaining = deadline - this.#clock();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        finished.then(() => false),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), Math.max(0, remaining)))),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        const stillRunning = [...pending];
        // later groups are told to stop too, but not waited for
        for (const later of steps.slice(steps.indexOf(step) + 1)) later.stop();
        this.#fail(new GracefulShutdownTimeoutError(stillRunning, timeoutMs));
        return;
      }
    }
  }
}

function abortedOf(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function describeReason(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
