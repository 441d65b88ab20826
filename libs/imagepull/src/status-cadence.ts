/**
 * How often an ImagePullJob's status is written: the workload status cadence of docs/adr/0050 applied to the job's
 * counters (docs/imagepull.md "What a job does").
 *
 * A job's reconcile runs on every NodeImage status change of its nodes, and each pull that ends moves `active` and
 * `succeeded`: one status write per node (52 for the 50-node bench, docs/benchmarks.md §9), each a round trip in
 * front of the job's next reconcile, which is the one that gives the next node the tag. So:
 * - a change in a field that is not a counter (`startTime`, `completionTime`, `failedNodes`), or a first status, is
 *   written at once: completion is never held;
 * - a change only in the counters (`desired`, `active`, `succeeded`, `failed` and the progress `message`) is written
 *   when the job's status was not written by this process within {@link JOB_STATUS_WRITE_INTERVAL_MS}; otherwise the
 *   reconcile asks to run again when the interval is over, and that reconcile writes the status it computes then.
 */

/** Least time between two counter-only status writes of one job (ms), as docs/adr/0050's. */
export const JOB_STATUS_WRITE_INTERVAL_MS = 1000;

/** The status fields a change in which may wait for the interval. */
export const JOB_STATUS_COUNTERS: readonly string[] = ['desired', 'active', 'succeeded', 'failed', 'message'];

export type JobStatusWrite =
  | { action: 'unchanged' }
  | { action: 'write' }
  /** Counters only, inside the interval: reconcile again after `afterMs`. */
  | { action: 'defer'; afterMs: number };

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * Whether to write `next` over `stored` now. `lastWriteMs`: when this process last wrote the job's status
 * (undefined: not within memory). A clock that went back counts as the interval over.
 */
export function decideJobStatusWrite(f: {
  stored: unknown;
  next: unknown;
  lastWriteMs: number | undefined;
  nowMs: number;
  intervalMs?: number;
}): JobStatusWrite {
  if (f.stored === undefined || f.stored === null) return { action: 'write' };
  const s = asRecord(f.stored);
  const n = asRecord(f.next);
  let countersChanged = false;
  for (const k of new Set([...Object.keys(s), ...Object.keys(n)])) {
    if (same(s[k], n[k])) continue;
    if (!JOB_STATUS_COUNTERS.includes(k)) return { action: 'write' };
    countersChanged = true;
  }
  if (!countersChanged) return { action: 'unchanged' };
  const interval = f.intervalMs ?? JOB_STATUS_WRITE_INTERVAL_MS;
  if (f.lastWriteMs === undefined) return { action: 'write' };
  const elapsed = f.nowMs - f.lastWriteMs;
  if (elapsed < 0 || elapsed >= interval) return { action: 'write' };
  return { action: 'defer', afterMs: interval - elapsed };
}
