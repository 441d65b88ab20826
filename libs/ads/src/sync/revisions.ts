/**
 * Revisions step (OpenKruise `pkg/controller/daemonset/daemonset_history.go` `constructHistory`): the revision of the
 * current template (reused, renumbered as the newest, or created with the collision count bumped while a different
 * revision holds the name) and its hash.
 */
import type { RevisionSync } from '@regatta/revision';
import { syncWorkloadRevisions } from '@regatta/workload';
import type { DaemonSetObject } from '../daemonset-object.js';
import { newDaemonSetRevision, revisionHash } from '../planning/index.js';
import type { SyncDeps } from './context.js';

export async function revisionsStep(
  d: SyncDeps,
  ds: DaemonSetObject,
): Promise<RevisionSync & { hash: string }> {
  const sync = await syncWorkloadRevisions(
    d,
    ds,
    (revision, collisionCount) => newDaemonSetRevision(ds, revision, collisionCount),
    { currentRevision: false },
  );
  return { ...sync, hash: revisionHash(sync.updateRevision) };
}
