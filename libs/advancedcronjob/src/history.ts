/**
 * History limits (`successfulJobsHistoryLimit`, `failedJobsHistoryLimit`; `pkg/controller/advancedcronjob`): of
 * the finished jobs of one outcome, the oldest by start time (a job that never started counts oldest) beyond the
 * limit are deleted. No limit set: nothing is deleted.
 */
import type { ChildJob } from './children.js';

/** The finished jobs to delete so that at most `limit` remain, oldest first. */
export function jobsBeyondLimit(finished: readonly ChildJob[], limit: number | undefined): ChildJob[] {
  if (limit == null) return [];
  const live = finished.filter((j) => !j.deleting);
  const sorted = [...live].sort((a, b) => (a.startTime ?? -Infinity) - (b.startTime ?? -Infinity) || a.name.localeCompare(b.name));
  return sorted.slice(0, Math.max(0, sorted.length - Math.max(0, limit)));
}

/** Both limits applied: the successful and the failed jobs to delete. */
export function historyToPrune(
  children: readonly ChildJob[],
  limits: { successful?: number | undefined; failed?: number | undefined },
): ChildJob[] {
  return [
    ...jobsBeyondLimit(children.filter((c) => c.outcome === 'Failed'), limits.failed),
    ...jobsBeyondLimit(children.filter((c) => c.outcome === 'Complete'), limits.successful),
  ];
}
