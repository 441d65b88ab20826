/**
 * History truncation (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `truncateHistory`): revisions
 * that are neither current, update, nor any pod's, beyond `revisionHistoryLimit`, oldest first. Best effort.
 */
import type { Pod } from '@regatta/lifecycle';
import { type ControllerRevision, truncateHistory } from '@regatta/revision';
import type { AstsSync } from './context.js';

export async function historyStep(
  s: AstsSync,
  input: {
    pods: Pod[];
    sortedRevisions: ControllerRevision[];
    currentRevision: string;
    updateRevision: string;
  },
): Promise<void> {
  await truncateHistory(
    s.d.client,
    {
      sortedRevisions: input.sortedRevisions,
      currentRevision: input.currentRevision,
      updateRevision: input.updateRevision,
      pods: input.pods,
      revisionHistoryLimit: s.spec.revisionHistoryLimit,
    },
    (err, revision) => s.log.warn({ err, revision }, 'could not truncate history'),
  );
}
