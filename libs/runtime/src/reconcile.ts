import { RuntimeError } from './errors.js';
import type { Logger } from './logger.js';

/**
 * What to reconcile: an object's name (and namespace, for namespaced kinds). It carries no
 * event data on purpose — reconcilers are level-based: read the current state from the cache,
 * compare it with the desired state, act, and return. The same request may arrive any number
 * of times, for any reason (create, update, delete, resync, retry); the outcome must only
 * depend on the state observed.
 */
export interface Request {
  namespace?: string;
  name: string;
}

/** What the reconciler wants next. The zero value (`{}`) means done until something changes. */
export interface Result {
  /** Reconcile this request again after this long (the back-off history is cleared). */
  requeueAfterMs?: number;
  /**
   * Reconcile again with rate-limited back-off. Prefer `requeueAfterMs` or throwing; kept for
   * parity with controller-runtime's (deprecated) `Requeue`.
   */
  requeue?: boolean;
}

/** Handed to every reconcile call. */
export interface ReconcileContext {
  /** A fresh UUID per call, also bound on `log` as `reconcileID`. */
  readonly reconcileID: string;
  /** Bound with the controller name, the request and the reconcileID. */
  readonly log: Logger;
  /** Aborted when the controller stops (or the reconciliation timeout passes); pass it on to I/O. */
  readonly signal: AbortSignal;
}

/**
 * Drives the cluster toward the desired state for one object. Throw to retry with back-off;
 * throw a {@link TerminalError} when retrying cannot help (it is logged and counted, not
 * retried). A result returned together with an error is impossible here by construction.
 */
export interface Reconciler {
  reconcile(req: Request, ctx: ReconcileContext): Promise<Result>;
}

/**
 * An error that retrying will not fix (invalid spec, unsupported combination). The controller
 * logs it and counts it in `controller_runtime_terminal_reconcile_errors_total`, and does not
 * requeue; the next change to the object triggers a new reconcile.
 */
export class TerminalError extends RuntimeError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('REGATTA_TERMINAL_RECONCILE', message, options);
  }

  /** Wraps an existing error as terminal, keeping it as the cause. */
  static wrap(err: unknown): TerminalError {
    if (err instanceof TerminalError) return err;
    return new TerminalError(err instanceof Error ? err.message : String(err), { cause: err });
  }
}

/** True when `err` or any error in its `cause` chain is a {@link TerminalError}. */
export function isTerminalError(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}

/** The queue key of a request: `namespace/name`, or `name` for cluster-scoped objects. */
export function requestKey(req: Request): string {
  return req.namespace ? `${req.namespace}/${req.name}` : req.name;
}

/** The inverse of {@link requestKey}. */
export function parseRequestKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
