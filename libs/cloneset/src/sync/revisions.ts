/**
 * Revisions step (OpenKruise `pkg/controller/cloneset/cloneset_controller.go` `getActiveRevisions`): the update
 * revision of the CloneSet's template (created, reused or rolled back), and its current revision.
 */
import {
  type ControllerRevision,
  type RevisionSync,
  newCloneSetRevision,
  syncRevisions,
} from '@regatta/revision';
import { CLONESET_GVK, type CloneSetObject } from '../cloneset-object.js';
import type { SyncDeps } from './context.js';

export function revisionsStep(d: SyncDeps, cs: CloneSetObject): Promise<RevisionSync> {
  const ns = cs.metadata?.namespace;
  return syncRevisions(d.client, {
    owner: cs,
    selector: cs.spec?.selector,
    revisions: d.revisions.list(ns !== undefined ? { namespace: ns } : {}) as ControllerRevision[],
    collisionCount: cs.status?.collisionCount ?? 0,
    currentRevision: cs.status?.currentRevision,
    candidate: (revision, collisionCount) => newCloneSetRevision(cs, revision, collisionCount, CLONESET_GVK),
  });
}
