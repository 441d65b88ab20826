/**
 * History step (OpenKruise `pkg/controller/daemonset/daemonset_history.go` `cleanupHistory`): old revisions beyond
 * `revisionHistoryLimit` that no pod uses are deleted, oldest first. Best effort: a failure is logged and retried on
 * a later reconcile.
 */
import type { Pod } from '@regatta/lifecycle';
import { type ControllerRevision, truncateHistory } from '@regatta/revision';
import { nameOf } from '../daemonset-object.js';
import type { DaemonSetSync } from './context.js';

export async function historyStep(
  s: DaemonSetSync,
  pods: readonly Pod[],
  sortedRevisions: readonly ControllerRevision[],
  updateRevision: ControllerRevision,
): Promise<void> {
  const update = nameOf(updateRevision);
  await truncateHistory(
    s.d.client,
    {
      sortedRevisions,
      currentRevision: update,
      updateRevision: update,
      pods,
      revisionHistoryLimit: s.ds.spec?.revisionHistoryLimit ?? null,
    },
    (err, revision) => s.log.warn({ err, revision }, 'could not truncate history'),
  );
}
