/**
 * Something the manager starts and stops: controllers, servers, caches. `start` runs until
 * `signal` aborts and resolves once the runnable has fully stopped; rejecting (or resolving
 * before the signal) means it failed, and the manager shuts everything down.
 */
export interface Runnable {
  /** Used in logs and errors. */
  readonly name: string;
  start(signal: AbortSignal): Promise<void>;
  /** Whether it may only run on the elected leader. Default: false (controllers say true). */
  needLeaderElection?(): boolean;
  /**
   * Start first and stop last (probe, metrics and webhook servers), like controller-runtime's
   * HTTP server and webhook runnable groups.
   */
  readonly isServer?: boolean;
}

/**
 * A cache (the bus-fed informer cache) the manager waits for before starting controllers. If
 * it also implements {@link Runnable}, the manager starts it first.
 */
export interface SyncWaiter {
  /** Used in logs and errors; default `cache`. */
  readonly name?: string;
  waitForSync(): Promise<void>;
}

/** Something with its own start/stop pair, where `start` returns once it is running. */
export interface StartStop {
  start(): Promise<void>;
  stop(): Promise<void>;
  waitForSync?(): Promise<void>;
}

/**
 * Adapts a start/stop object (e.g. the bus cache, whose `start` resolves once synced and whose
 * `stop` ends its watch) to a {@link Runnable} that runs until its signal aborts — and to a
 * {@link SyncWaiter} when the object has `waitForSync`, so the manager waits for it.
 */
export function startStopRunnable(name: string, target: StartStop): Runnable & Partial<SyncWaiter> {
  const runnable: Runnable & Partial<SyncWaiter> = {
    name,
    async start(signal: AbortSignal): Promise<void> {
      const aborted = new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      });
      // a stop may come while start still waits (a cache whose bucket never syncs): it must not wait on
      const started = target.start();
      // a failure after the stop is moot; one before it fails the runnable through the race below
      started.catch(() => undefined);
      try {
        await Promise.race([started, aborted]);
        await aborted;
      } finally {
        await target.stop();
      }
    },
  };
  const waitForSync = target.waitForSync?.bind(target);
  if (waitForSync) runnable.waitForSync = waitForSync;
  return runnable;
}

/** A health check: resolves when healthy, throws (with a reason) when not. */
export type Checker = () => void | Promise<void>;
