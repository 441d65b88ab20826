/**
 * After the status: names in `scaleStrategy.podsToDelete` of pods that are gone are pruned, and the revision
 * history beyond `revisionHistoryLimit` is truncated (OpenKruise `pkg/controller/cloneset/cloneset_controller.go`
 * `truncateHistory`). Both are best effort: a failure is logged and retried on a later reconcile.
 */
import type { Pod } from '@regatta/lifecycle';
import type { ControllerRevision } from '@regatta/revision';
import { prunePodsToDelete } from '@regatta/rollout';
import { truncateWorkloadHistory } from '@regatta/workload';
import { CLONESET_GVK } from '../cloneset-object.js';
import type { CloneSetSync } from './context.js';

export interface HistoryInput {
  pods: Pod[];
  sortedRevisions: ControllerRevision[];
  currentRevision: string;
  updateRevision: string;
}

export async function historyStep(s: CloneSetSync, input: HistoryInput): Promise<void> {
  const { cs } = s;
  const pruned = prunePodsToDelete(s.spec.scaleStrategy?.podsToDelete, input.pods);
  if (pruned !== undefined) {
    await s.d.client
      .patch(
        { ...CLONESET_GVK, namespace: cs.metadata?.namespace, name: cs.metadata?.name ?? '' },
        { spec: { scaleStrategy: { podsToDelete: pruned } } },
        { type: 'merge' },
      )
      .catch((err: unknown) => s.log.warn({ err }, 'could not prune podsToDelete'));
  }
  await truncateWorkloadHistory(s.d.client, s.log, {
    ...input,
    revisionHistoryLimit: cs.spec?.revisionHistoryLimit ?? null,
  });
}
