/**
 * Revisions step (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `getStatefulSetRevisions`): the
 * update revision of the set's template (created, reused or rolled back) and its current revision. Same data as
 * CloneSet's revisions, without the volumeClaimTemplates hash.
 */
import {
  type ControllerRevision,
  type RevisionSync,
  newCloneSetRevision,
  syncRevisions,
} from '@regatta/revision';
import { STATEFULSET_GVK, type StatefulSetObject } from '../statefulset-object.js';
import type { SyncDeps } from './context.js';

export function revisionsStep(d: SyncDeps, set: StatefulSetObject): Promise<RevisionSync> {
  const ns = set.metadata?.namespace;
  return syncRevisions(d.client, {
    owner: set,
    selector: set.spec?.selector,
    revisions: d.revisions.list(ns !== undefined ? { namespace: ns } : {}) as ControllerRevision[],
    collisionCount: set.status?.collisionCount ?? 0,
    currentRevision: set.status?.currentRevision,
    candidate: (revision, collisionCount) =>
      newCloneSetRevision(set as never, revision, collisionCount, STATEFULSET_GVK, {
        volumeClaimTemplatesHash: false,
      }),
  });
}
