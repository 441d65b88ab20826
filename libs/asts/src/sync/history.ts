/**
 * History truncation (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `truncateHistory`): revisions
 * that are neither current, update, nor any pod's, beyond `revisionHistoryLimit`, oldest first. Best effort.
 */
import type { Pod } from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { truncateWorkloadHistory } from '@regatta/workload';
import type { AstsSync } from './context.js';

export function historyStep(
  s: AstsSync,
  input: {
    pods: Pod[];
    sortedRevisions: ControllerRevision[];
    currentRevision: string;
    updateRevision: string;
  },
): Promise<void> {
  return truncateWorkloadHistory(s.d.client, s.log, {
    ...input,
    revisionHistoryLimit: s.spec.revisionHistoryLimit,
  });
}
