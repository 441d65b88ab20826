/**
 * The revisions step of a workload round (docs/adr/0072-one-workload-round.md; OpenKruise `getActiveRevisions` in
 * `pkg/controller/cloneset/cloneset_controller.go`, `getStatefulSetRevisions`, `constructHistory` of the
 * DaemonSet): the ControllerRevisions of the workload's namespace from the cache, synced with its template now.
 */
import type { KubeObject, LabelSelector } from '@regatta/kube';
import {
  type ControllerRevision,
  type RevisionSync,
  type TruncateHistoryInput,
  syncRevisions,
  truncateHistory,
} from '@regatta/revision';
import type { ControlLogger, KubeWriter, ObjectReader } from '../types.js';

export interface RevisionOwner extends KubeObject {
  spec?: { selector?: LabelSelector | null };
  status?: { collisionCount?: number | null; currentRevision?: string | null };
}

/** The update and current revisions of `owner`, the update one `candidate` (created or renumbered as needed). */
export function syncWorkloadRevisions(
  d: { client: KubeWriter; revisions: ObjectReader<KubeObject> },
  owner: RevisionOwner,
  candidate: (revision: number, collisionCount: number) => ControllerRevision,
  /** `false` for a kind without `status.currentRevision` (the DaemonSet): the update revision is also current. */
  options: { currentRevision?: false } = {},
): Promise<RevisionSync> {
  const ns = owner.metadata?.namespace;
  return syncRevisions(d.client, {
    owner,
    selector: owner.spec?.selector,
    revisions: d.revisions.list(ns !== undefined ? { namespace: ns } : {}) as ControllerRevision[],
    collisionCount: owner.status?.collisionCount ?? 0,
    currentRevision:
      options.currentRevision === false ? undefined : (owner.status?.currentRevision ?? undefined),
    candidate,
  });
}

/**
 * The history step: revisions beyond `revisionHistoryLimit` that are neither current, update nor any pod's, deleted
 * oldest first (OpenKruise `truncateHistory`). Best effort: a failure is logged and retried on a later round.
 */
export function truncateWorkloadHistory(
  client: Pick<KubeWriter, 'delete'>,
  log: Pick<ControlLogger, 'warn'>,
  input: TruncateHistoryInput,
): Promise<void> {
  return truncateHistory(client, input, (err, revision) =>
    log.warn({ err, revision }, 'could not truncate history'),
  );
}
