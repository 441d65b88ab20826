/**
 * Revisions step (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `getStatefulSetRevisions`): the
 * update revision of the set's template (created, reused or rolled back) and its current revision. Same data as
 * CloneSet's revisions, without the volumeClaimTemplates hash.
 */
import { type RevisionSync, newCloneSetRevision } from '@regatta/revision';
import { syncWorkloadRevisions } from '@regatta/workload';
import { STATEFULSET_GVK, type StatefulSetObject } from '../statefulset-object.js';
import type { SyncDeps } from './context.js';

export function revisionsStep(d: SyncDeps, set: StatefulSetObject): Promise<RevisionSync> {
  return syncWorkloadRevisions(d, set, (revision, collisionCount) =>
    newCloneSetRevision(set as never, revision, collisionCount, STATEFULSET_GVK, {
      volumeClaimTemplatesHash: false,
    }),
  );
}
