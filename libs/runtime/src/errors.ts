import { RegattaError } from '@regatta/errors';

/** Base class of the runtime's errors. */
export class RuntimeError extends RegattaError {}

/** Options that cannot work together (for example leader-election timings). */
export class InvalidOptionsError extends RuntimeError {
  constructor(what: string, reason: string) {
    super('REGATTA_INVALID_OPTIONS', `invalid ${what}: ${reason}`);
  }
}

/** `start` was called on something that is already running (or has run). */
export class AlreadyStartedError extends RuntimeError {
  constructor(what: string) {
    super('REGATTA_ALREADY_STARTED', `${what} was already started; it can be started only once`);
  }
}

/** A cache did not report synced within the allowed time. */
export class CacheSyncTimeoutError extends RuntimeError {
  constructor(
    readonly source: string,
    readonly timeoutMs: number,
  ) {
    super('REGATTA_CACHE_SYNC_TIMEOUT', `cache '${source}' did not sync within ${timeoutMs} ms`);
  }
}

/** Runnables did not stop within the graceful-shutdown period. */
export class GracefulShutdownTimeoutError extends RuntimeError {
  constructor(
    readonly pending: string[],
    readonly timeoutMs: number,
  ) {
    super(
      'REGATTA_SHUTDOWN_TIMEOUT',
      `runnables did not stop within the ${timeoutMs} ms grace period: ${pending.join(', ')}`,
    );
  }
}

/** This process held the lease and lost it; it must stop acting as leader (and should exit). */
export class LeaderElectionLostError extends RuntimeError {
  constructor(
    readonly identity: string,
    readonly lease: string,
  ) {
    super('REGATTA_LEADER_ELECTION_LOST', `'${identity}' lost the lease ${lease}`);
  }
}

/**
 * A write refused inside the program: it has led, and its lease is stale (a pause past the renew deadline, not yet
 * renewed) or lost. Retried by the work queue; the program stops if the lease turns out lost.
 */
export class LeaseNotHeldError extends RuntimeError {
  constructor(readonly lease: string) {
    super(
      'REGATTA_LEASE_NOT_HELD',
      `write refused: the leader lease ${lease} is not fresh (renewed more than the renew deadline ago, or lost); ` +
        'the program renews it or stops',
    );
  }
}

/** A runnable's `start` rejected (or resolved) while the manager was running. */
export class RunnableFailedError extends RuntimeError {
  constructor(
    readonly runnable: string,
    cause: unknown,
  ) {
    super(
      'REGATTA_RUNNABLE_FAILED',
      `runnable '${runnable}' stopped unexpectedly: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** The webhook server's TLS key/certificate could not be read or used. */
export class TlsConfigError extends RuntimeError {
  constructor(reason: string, cause?: unknown) {
    super('REGATTA_TLS_CONFIG', `webhook TLS configuration: ${reason}`, { cause });
  }
}

/** `add` was called on a manager that has already started. */
export class ManagerStartedError extends RuntimeError {
  constructor(what: string) {
    super('REGATTA_MANAGER_STARTED', `cannot add '${what}': the manager has already started`);
  }
}
