/**
 * The second half of one workload round, after the workload is read, gated, claimed and its revisions and rollout
 * trace are in hand (docs/adr/0072-one-workload-round.md): manage (scale or update, the kind's algorithm), status
 * with its cadence (ADR 0050, 0070), the rollout trace followed, history; then a failure is rethrown for the queue's
 * back-off, or the soonest delay a step asked for is the requeue. The order is OpenKruise's `syncCloneSet` /
 * `updateStatefulSet` / `syncDaemonSet`: status is written even when manage failed.
 */
import type { Result } from '@regatta/runtime';

/** What manage reports when it failed: the error the queue backs off on. */
export interface RoundFailure {
  err: unknown;
}

export interface RoundSteps<F extends RoundFailure, S> {
  /** The workload is being deleted: no pod is created, deleted or updated, status and history still run. */
  deleting?: boolean;
  /** Scale, else update: the failure, if a step failed (the kind's own planning decides what to write). */
  manage(): Promise<F | undefined>;
  /** The status of what the round saw and did, written on the cadence. */
  status(failure: F | undefined): Promise<S>;
  /** The rollout trace follows the status (spans end, the trace closes when the rollout is done). */
  follow(status: S): Promise<void>;
  /** Old revisions beyond the history limit are deleted. */
  history(status: S): Promise<void>;
  /** Requeue delays the steps asked for (ms); non-positive ones ask for none. */
  delays(status: S): readonly number[];
}

/** Runs the steps in order; the round's Result, or the failure's error thrown once status and history ran. */
export async function runRound<F extends RoundFailure, S>(steps: RoundSteps<F, S>): Promise<Result> {
  const failure = steps.deleting ? undefined : await steps.manage();
  const status = await steps.status(failure);
  await steps.follow(status);
  await steps.history(status);
  // a failure is retried with the queue's back-off, not at a fixed delay
  if (failure !== undefined) throw failure.err;
  return soonestRequeue(steps.delays(status));
}

/** The soonest of the positive delays as a requeue; `{}` (done until something changes) when there is none. */
export function soonestRequeue(delays: readonly number[], otherwise: Result = {}): Result {
  const positive = delays.filter((ms) => ms > 0);
  return positive.length > 0 ? { requeueAfterMs: Math.min(...positive) } : otherwise;
}

/** Runs `step`, turning a throw into the failure `as` names (a scale failure, an update failure). */
export async function failureOf<F extends RoundFailure>(
  step: () => Promise<unknown>,
  as: (err: unknown) => F,
): Promise<F | undefined> {
  try {
    await step();
    return undefined;
  } catch (err) {
    return as(err);
  }
}
