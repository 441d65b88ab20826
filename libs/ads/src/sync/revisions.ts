/**
 * Revisions step (OpenKruise `pkg/controller/daemonset/daemonset_history.go` `constructHistory`): the revision of the
 * current template (reused, renumbered as the newest, or created with the collision count bumped while a different
 * revision holds the name) and its hash.
 */
import { type ControllerRevision, type RevisionSync, syncRevisions } from '@regatta/revision';
import type { DaemonSetObject } from '../daemonset-object.js';
import { newDaemonSetRevision, revisionHash } from '../planning/index.js';
import type { SyncDeps } from './context.js';

export async function revisionsStep(
  d: SyncDeps,
  ds: DaemonSetObject,
): Promise<RevisionSync & { hash: string }> {
  const ns = ds.metadata?.namespace;
  const sync = await syncRevisions(d.client, {
    owner: ds,
    selector: ds.spec?.selector,
    revisions: d.revisions.list(ns !== undefined ? { namespace: ns } : {}) as ControllerRevision[],
    collisionCount: ds.status?.collisionCount ?? 0,
    currentRevision: undefined,
    candidate: (revision, collisionCount) => newDaemonSetRevision(ds, revision, collisionCount),
  });
  return { ...sync, hash: revisionHash(sync.updateRevision) };
}
