/**
 * Revisions step (OpenKruise `pkg/controller/cloneset/cloneset_controller.go` `getActiveRevisions`): the update
 * revision of the CloneSet's template (created, reused or rolled back), and its current revision.
 */
import { type RevisionSync, newCloneSetRevision } from '@regatta/revision';
import { syncWorkloadRevisions } from '@regatta/workload';
import { CLONESET_GVK, type CloneSetObject } from '../cloneset-object.js';
import type { SyncDeps } from './context.js';

export function revisionsStep(d: SyncDeps, cs: CloneSetObject): Promise<RevisionSync> {
  return syncWorkloadRevisions(d, cs, (revision, collisionCount) =>
    newCloneSetRevision(cs, revision, collisionCount, CLONESET_GVK),
  );
}
