/**
 * Revision history as CloneSet keeps it: listing, ordering, equality, choosing the update revision (reuse, roll back
 * to an equal older revision, or create), the current revision, and truncation to `revisionHistoryLimit`.
 */
import {
  type KubeObject,
  type LabelSelector,
  cloneJson,
  compileLabelSelector,
  controllerRef,
} from '@regatta/kube';
import { revisionDataBytes } from './controller-revision.js';
import { DEFAULT_REVISION_HISTORY_LIMIT, REVISION_HASH_LABEL, VCT_HASH_ANNOTATION } from './keys.js';
import { isPodAtRevision } from './pod-revision.js';
import type { ControllerRevision } from './types.js';

/**
 * `ListControllerRevisions`: the revisions in the parent's namespace that match its selector and whose controller
 * reference is missing (orphans) or the parent. Returns them in input order; sort with {@link sortControllerRevisions}.
 */
export function ownedRevisions(
  revisions: readonly ControllerRevision[],
  parent: KubeObject,
  selector: LabelSelector | null | undefined,
): ControllerRevision[] {
  const matches = compileLabelSelector(selector);
  const ns = parent.metadata?.namespace;
  const uid = parent.metadata?.uid;
  return revisions.filter((r) => {
    if (ns !== undefined && r.metadata?.namespace !== undefined && r.metadata.namespace !== ns) return false;
    if (!matches.matches(r.metadata?.labels)) return false;
    const ref = controllerRef(r);
    return ref === undefined || ref.uid === uid;
  });
}

function time(r: ControllerRevision): number {
  const ts = r.metadata?.creationTimestamp;
  const t = ts ? Date.parse(ts) : Number.NaN;
  return Number.isNaN(t) ? Number.NEGATIVE_INFINITY : t;
}

/** Orders revisions as `history.SortControllerRevisions`: by `.revision`, then older creationTimestamp, then name. */
export function compareControllerRevisions(a: ControllerRevision, b: ControllerRevision): number {
  if (a.revision !== b.revision) return a.revision - b.revision;
  const ta = time(a);
  const tb = time(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** A new array sorted with {@link compareControllerRevisions} (oldest first). */
export function sortControllerRevisions(revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return [...revisions].sort(compareControllerRevisions);
}

/** `NextRevision`: 1 + the revision number of the last of the sorted revisions, 1 for an empty history. */
export function nextRevision(sortedRevisions: readonly ControllerRevision[]): number {
  const last = sortedRevisions[sortedRevisions.length - 1];
  return last === undefined ? 1 : last.revision + 1;
}

const INT32_DECIMAL = /^[+-]?\d+$/;

function parsedHash(r: ControllerRevision): number | undefined {
  const s = r.metadata?.labels?.[REVISION_HASH_LABEL];
  if (s === undefined || !INT32_DECIMAL.test(s)) return undefined;
  const n = Number(s);
  return n >= -2147483648 && n <= 2147483647 ? n >>> 0 : undefined;
}

/**
 * `history.EqualRevision`: when both carry a `controller.kubernetes.io/hash` label that parses as a 32-bit decimal
 * integer and the values differ they are different; otherwise equal iff the data bytes are equal.
 */
export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ha = parsedHash(a);
  const hb = parsedHash(b);
  if (ha !== undefined && hb !== undefined && ha !== hb) return false;
  return revisionDataBytes(a) === revisionDataBytes(b);
}

/** `history.FindEqualRevisions`: the revisions equal to `needle`, in input order. */
export function findEqualRevisions(
  revisions: readonly ControllerRevision[],
  needle: ControllerRevision,
): ControllerRevision[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

/** How the update revision is obtained from the history and the candidate built from the current spec. */
export type UpdateRevisionDecision =
  /** The latest stored revision already equals the candidate: use it, no write. */
  | { type: 'reuse'; revision: ControllerRevision }
  /**
   * The template went back to an older revision: UPDATE `revision` (the last equal one with `.revision` bumped to the
   * candidate's number, and its VCT-hash annotation refreshed when it differed or was missing).
   */
  | { type: 'rollback'; revision: ControllerRevision; previous: ControllerRevision }
  /** No equal revision: CREATE the candidate (handle AlreadyExists with `resolveNameCollision`). */
  | { type: 'create'; revision: ControllerRevision };

/**
 * The update-revision step of CloneSet `getActiveRevisions`. `sortedRevisions` must be sorted oldest first and
 * `candidate` built with `nextRevision(sortedRevisions)` as its number.
 */
export function decideUpdateRevision(
  sortedRevisions: readonly ControllerRevision[],
  candidate: ControllerRevision,
): UpdateRevisionDecision {
  const equal = findEqualRevisions(sortedRevisions, candidate);
  const lastEqual = equal[equal.length - 1];
  const latest = sortedRevisions[sortedRevisions.length - 1];
  if (lastEqual === undefined) return { type: 'create', revision: candidate };
  if (equalRevision(latest, lastEqual)) return { type: 'reuse', revision: latest ?? lastEqual };
  const updated = cloneJson(lastEqual);
  const wanted = candidate.metadata?.annotations?.[VCT_HASH_ANNOTATION];
  const stored = lastEqual.metadata?.annotations?.[VCT_HASH_ANNOTATION];
  // only for kinds whose candidates carry it (CloneSet); other kinds' revisions never get it
  if (wanted !== undefined && (stored === undefined || stored !== wanted)) {
    updated.metadata = {
      ...updated.metadata,
      annotations: { ...(updated.metadata?.annotations ?? {}), [VCT_HASH_ANNOTATION]: wanted },
    };
  }
  updated.revision = candidate.revision;
  return { type: 'rollback', revision: updated, previous: lastEqual };
}

/** The current revision: the stored one named `status.currentRevision`, else the update revision (a new history). */
export function currentRevisionOf(
  revisions: readonly ControllerRevision[],
  statusCurrentRevision: string | undefined,
  updateRevision: ControllerRevision,
): ControllerRevision {
  return revisions.find((r) => r.metadata?.name === statusCurrentRevision) ?? updateRevision;
}

export interface TruncateHistoryInput {
  /** All revisions of the workload, sorted oldest first. */
  sortedRevisions: readonly ControllerRevision[];
  currentRevision: string;
  updateRevision: string;
  /** The workload's pods: a revision any of them is at (full name or short hash) is live. */
  pods: readonly KubeObject[];
  /** `spec.revisionHistoryLimit` (default 10). */
  revisionHistoryLimit?: number | null;
}

/**
 * `truncateHistory`: the non-live revisions (not current, not update, no pod at them) beyond
 * `revisionHistoryLimit`, oldest first — the ones to DELETE.
 */
export function revisionsToTruncate(input: TruncateHistoryInput): ControllerRevision[] {
  const limit = input.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  const history = input.sortedRevisions.filter((r) => {
    const name = r.metadata?.name ?? '';
    if (name === input.currentRevision || name === input.updateRevision) return false;
    return !input.pods.some((p) => isPodAtRevision(p, name));
  });
  if (history.length <= limit) return [];
  return history.slice(0, history.length - Math.max(limit, 0));
}

/** The first revision the pod is at (full name or short hash), e.g. the old revision of an in-place update. */
export function revisionOfPod(
  pod: KubeObject,
  revisions: readonly ControllerRevision[],
): ControllerRevision | undefined {
  return revisions.find((r) => isPodAtRevision(pod, r.metadata?.name ?? ''));
}
