/**
 * Revision sync with its writes (OpenKruise `pkg/controller/cloneset/cloneset_controller.go` `getActiveRevisions`,
 * Kubernetes' `controller/history`): reuse the latest revision when the template is unchanged, bring an older equal
 * one back as the newest (rollback), or create a new one, bumping the collision count while a different revision
 * holds the name; and history truncation (`truncateHistory`).
 */
import {
  type KubeClient,
  type KubeObject,
  type LabelSelector,
  isAlreadyExists,
  isNotFound,
} from '@regatta/kube';
import { resolveNameCollision, revisionForCollisionCount, withGoOrderedData } from './controller-revision.js';
import {
  type TruncateHistoryInput,
  currentRevisionOf,
  decideUpdateRevision,
  nextRevision,
  ownedRevisions,
  revisionsToTruncate,
  sortControllerRevisions,
} from './history.js';
import type { ControllerRevision } from './types.js';

const REVISION = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;

export type RevisionWriter = Pick<KubeClient, 'create' | 'get' | 'replace' | 'delete'>;

export interface RevisionSyncInput {
  /** The workload (its uid, namespace and name). */
  owner: KubeObject;
  selector: LabelSelector | null | undefined;
  /** ControllerRevisions of the owner's namespace (those it owns and its selector matches are kept). */
  revisions: readonly ControllerRevision[];
  /** `status.collisionCount`. */
  collisionCount: number;
  /** `status.currentRevision`. */
  currentRevision: string | undefined;
  /** The revision of the workload's template now, numbered `revision`, named with `collisionCount`. */
  candidate: (revision: number, collisionCount: number) => ControllerRevision;
}

export interface RevisionSync {
  /** The owned revisions, oldest first, with the update revision among them. */
  sorted: ControllerRevision[];
  updateRevision: ControllerRevision;
  currentRevision: ControllerRevision;
  collisionCount: number;
}

/** The update and current revisions, creating or renumbering the update revision as needed. */
export async function syncRevisions(client: RevisionWriter, input: RevisionSyncInput): Promise<RevisionSync> {
  const { owner } = input;
  let sorted = sortControllerRevisions(ownedRevisions(input.revisions, owner, input.selector));
  let collisionCount = input.collisionCount;
  const number = nextRevision(sorted);
  const candidate = input.candidate(number, collisionCount);
  const decision = decideUpdateRevision(sorted, candidate);
  let updateRevision: ControllerRevision;
  if (decision.type === 'reuse') {
    updateRevision = decision.revision;
  } else if (decision.type === 'rollback') {
    updateRevision = await client.replace(decision.revision);
    const name = updateRevision.metadata?.name;
    sorted = sortControllerRevisions(sorted.map((r) => (r.metadata?.name === name ? updateRevision : r)));
  } else {
    let attempt = decision.revision;
    for (;;) {
      try {
        updateRevision = await client.create(withGoOrderedData(attempt));
        break;
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
        const existing = await client.get<ControllerRevision>({
          ...REVISION,
          namespace: owner.metadata?.namespace,
          name: attempt.metadata?.name ?? '',
        });
        const resolution = resolveNameCollision(existing, attempt, collisionCount);
        if (resolution.type === 'reuse') {
          updateRevision = resolution.revision;
          break;
        }
        collisionCount = resolution.collisionCount;
        attempt = revisionForCollisionCount(candidate, owner.metadata?.name ?? '', collisionCount);
      }
    }
    const name = updateRevision.metadata?.name;
    if (!sorted.some((r) => r.metadata?.name === name)) sorted = [...sorted, updateRevision];
  }
  const currentRevision = currentRevisionOf(sorted, input.currentRevision, updateRevision);
  return { sorted, updateRevision, currentRevision, collisionCount };
}

/**
 * Deletes the revisions beyond `revisionHistoryLimit` that no pod uses. Best effort: a failed delete is reported to
 * `onError` and retried on a later reconcile; one already gone is not an error.
 */
export async function truncateHistory(
  client: Pick<RevisionWriter, 'delete'>,
  input: TruncateHistoryInput,
  onError: (err: unknown, revision: string) => void,
): Promise<void> {
  for (const r of revisionsToTruncate(input)) {
    const name = r.metadata?.name ?? '';
    await client.delete({ ...REVISION, namespace: r.metadata?.namespace, name }).catch((err: unknown) => {
      if (!isNotFound(err)) onError(err, name);
    });
  }
}
