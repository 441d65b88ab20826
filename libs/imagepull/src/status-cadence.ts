/**
 * How often an ImagePullJob's status is written: the workload status cadence of docs/adr/0050 applied to the job's
 * counters (docs/imagepull.md "What a job does").
 *
 * A job's reconcile runs on every NodeImage status change of its nodes, and each pull that ends moves `active` and
 * `succeeded`: one status write per node (52 for the 50-node bench, docs/benchmarks-imagepull.md §9), each a round trip in
 * front of the job's next reconcile, which is the one that gives the next node the tag. So:
 * - a change in a field that is not a counter (`startTime`, `completionTime`, `failedNodes`), or a first status, is
 *   written at once: completion is never held;
 * - a change only in the counters (`desired`, `active`, `succeeded`, `failed` and the progress `message`) is written
 *   when the job's status was not written by this process within {@link JOB_STATUS_WRITE_INTERVAL_MS}; otherwise the
 *   reconcile asks to run again when the interval is over, and that reconcile writes the status it computes then.
 */
import {
  STATUS_WRITE_INTERVAL_MS,
  type StatusCadenceRules,
  changedBeyondCounters,
  decideStatusWrite,
} from '@regatta/workload';

/** Least time between two counter-only status writes of one job (ms): the workloads' (docs/adr/0050). */
export const JOB_STATUS_WRITE_INTERVAL_MS = STATUS_WRITE_INTERVAL_MS;

/** The status fields a change in which may wait for the interval. */
export const JOB_STATUS_COUNTERS: readonly string[] = ['desired', 'active', 'succeeded', 'failed', 'message'];

/** A job has no settled state to hurry: completion is a change of `completionTime`, written at once anyway. */
const JOB_STATUS_RULES: StatusCadenceRules<unknown> = { counters: JOB_STATUS_COUNTERS, settled: () => false };

export type JobStatusWrite =
  | { action: 'unchanged' }
  | { action: 'write' }
  /** Counters only, inside the interval: reconcile again after `afterMs`. */
  | { action: 'defer'; afterMs: number };

/**
 * Whether to write `next` over `stored` now: libs/workload's `decideStatusWrite` with the job's counters.
 * `lastWriteMs`: when this process last wrote the job's status (undefined: not within memory). A clock that went
 * back counts as the interval over.
 */
export function decideJobStatusWrite(f: {
  stored: unknown;
  next: unknown;
  lastWriteMs: number | undefined;
  nowMs: number;
  intervalMs?: number;
}): JobStatusWrite {
  const changed = changedBeyondCounters(f.stored, f.next, []);
  const d = decideStatusWrite({ ...f, changed }, JOB_STATUS_RULES);
  return d.action === 'write' ? { action: 'write' } : d;
}
