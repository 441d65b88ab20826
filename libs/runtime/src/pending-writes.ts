import type { Expectations, PendingScale, PendingUpdate } from './expectations.js';
import type { Result } from './reconcile.js';

/** Writes of an earlier round that the cache does not show yet, and when to look again. */
export type PendingWrites =
  | { kind: 'scale'; pending: PendingScale; requeueAfterMs: number }
  | { kind: 'updates'; pending: PendingUpdate[]; requeueAfterMs: number };

/** Requeue at most this long after scale (creates, deletes) and update expectations. */
const SCALE_RECHECK_MS = 5_000;
const UPDATE_RECHECK_MS = 2_000;

/**
 * The workloads' gate before a round (OpenKruise's `scaleExpectations` / `resourceVersionExpectations` checks at the
 * top of each sync): creates and deletes first, then pod updates, observed from the cache's resourceVersions
 * (`resourceVersionOf`). Undefined when the cache shows every earlier write.
 */
export function pendingWrites(
  expectations: Expectations,
  key: string,
  resourceVersionOf: (name: string) => string | undefined,
): PendingWrites | undefined {
  const scale = expectations.satisfiedScale(key);
  if (!scale.satisfied) {
    return {
      kind: 'scale',
      pending: scale.pending,
      requeueAfterMs: Math.min(scale.remainingMs, SCALE_RECHECK_MS),
    };
  }
  expectations.observeUpdatedFrom(key, resourceVersionOf);
  const updated = expectations.isUpdatedSatisfied(key);
  if (!updated.satisfied) {
    return {
      kind: 'updates',
      pending: updated.pending,
      requeueAfterMs: Math.min(updated.remainingMs, UPDATE_RECHECK_MS),
    };
  }
  return undefined;
}

/**
 * A workload reconciler's gate before a round: the result that looks again once {@link pendingWrites} may be
 * satisfied (said at debug level), or undefined when the round may run.
 */
export function waitForPendingWrites(
  expectations: Expectations,
  key: string,
  resourceVersionOf: (name: string) => string | undefined,
  log: { debug(fields: object, msg: string): void },
): Result | undefined {
  const pending = pendingWrites(expectations, key, resourceVersionOf);
  if (!pending) return undefined;
  log.debug(
    { pending: pending.pending },
    pending.kind === 'scale'
      ? 'waiting for scale expectations'
      : 'waiting for the cache to show our pod updates',
  );
  return { requeueAfterMs: pending.requeueAfterMs };
}
