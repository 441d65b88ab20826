/**
 * History step (OpenKruise `pkg/controller/daemonset/daemonset_history.go` `cleanupHistory`): old revisions beyond
 * `revisionHistoryLimit` that no pod uses are deleted, oldest first. Best effort: a failure is logged and retried on
 * a later reconcile.
 */
import type { Pod } from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { truncateWorkloadHistory } from '@regatta/workload';
import { nameOf } from '../daemonset-object.js';
import type { DaemonSetSync } from './context.js';

export async function historyStep(
  s: DaemonSetSync,
  pods: readonly Pod[],
  sortedRevisions: readonly ControllerRevision[],
  updateRevision: ControllerRevision,
): Promise<void> {
  const update = nameOf(updateRevision);
  await truncateWorkloadHistory(s.d.client, s.log, {
    sortedRevisions,
    currentRevision: update,
    updateRevision: update,
    pods,
    revisionHistoryLimit: s.ds.spec?.revisionHistoryLimit ?? null,
  });
}
