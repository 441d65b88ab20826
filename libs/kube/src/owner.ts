/**
 * Owner references and the controller-ref claim rules (apimachinery `GetControllerOf`, controller-runtime /
 * kube-controller-manager `BaseControllerRefManager.ClaimObject`), as pure functions.
 */
import type { GroupVersionKind, KubeObject, OwnerReference } from './meta.js';
import { type LabelSelector, compileLabelSelector } from './selector.js';

/** A reference cannot be built: the owner lacks a field the API server requires. */
export class OwnerReferenceError extends Error {
  readonly code = 'REGATTA_KUBE_OWNER_REFERENCE';

  constructor(message: string) {
    super(message);
    this.name = 'OwnerReferenceError';
  }
}

/** The owner reference marked `controller: true`, if any. */
export function controllerRef(obj: KubeObject): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** True when `obj`'s controller reference points at `owner` (compared by UID). */
export function isControlledBy(obj: KubeObject, owner: KubeObject | { uid: string }): boolean {
  const uid = 'uid' in owner ? owner.uid : owner.metadata?.uid;
  const ref = controllerRef(obj);
  return ref !== undefined && uid !== undefined && uid !== '' && ref.uid === uid;
}

/**
 * A controller owner reference to `owner` (controller and blockOwnerDeletion true, as `metav1.NewControllerRef`).
 * Objects read from a list often lack apiVersion/kind: pass `gvk` then.
 */
export function newControllerRef(owner: KubeObject, gvk?: GroupVersionKind): OwnerReference {
  const apiVersion = gvk?.apiVersion ?? owner.apiVersion;
  const kind = gvk?.kind ?? owner.kind;
  const name = owner.metadata?.name;
  const uid = owner.metadata?.uid;
  if (!apiVersion || !kind) {
    throw new OwnerReferenceError(
      'the owner has no apiVersion/kind (list items do not carry them); pass the gvk argument',
    );
  }
  if (!name || !uid) {
    throw new OwnerReferenceError(
      `the owner ${kind} has no metadata.name or metadata.uid; use an object read from the API server`,
    );
  }
  return { apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true };
}

/** What a controller does with a candidate object when it claims the objects matching its selector. */
export type ClaimDecision =
  /** Owned by this controller and still matching: it is claimed, no write. */
  | 'keep'
  /** An orphan that matches: set this controller as its controller reference (it is then claimed). */
  | 'adopt'
  /** Owned by this controller but no longer matching: remove the controller reference (not claimed). */
  | 'release'
  /** Not ours and nothing to do: owned by someone else, not matching, being deleted, or another namespace. */
  | 'ignore';

export interface ClaimOwner {
  uid: string;
  /** The owner's namespace; a cluster-scoped owner (empty / undefined) may claim objects in any namespace. */
  namespace?: string;
  /** Set when the owner is being deleted: it then neither adopts nor releases. */
  deletionTimestamp?: string | null;
}

/** The owner fields the claim rules read, from a whole object. */
export function claimOwnerOf(owner: KubeObject): ClaimOwner {
  const m = owner.metadata ?? {};
  if (!m.uid)
    throw new OwnerReferenceError('the owner has no metadata.uid; use an object read from the API server');
  return { uid: m.uid, namespace: m.namespace, deletionTimestamp: m.deletionTimestamp };
}

/**
 * The claim decision for one candidate (`ClaimObject`):
 * - controlled by another owner → ignore;
 * - controlled by this owner: matching → keep (even while the owner is being deleted); not matching → release,
 *   unless the owner is being deleted (→ ignore);
 * - orphan: adopt only when it matches, the owner is not being deleted, the candidate is not being deleted and it is
 *   in the owner's namespace; otherwise ignore.
 *
 * `match` is a label selector over the candidate's labels, or any predicate. Callers must still re-check, with a
 * fresh read, that the owner's UID is unchanged and it is not being deleted before the first adoption (the
 * `canAdopt` check), because a cached owner may be stale.
 */
export function decideClaim(
  owner: ClaimOwner,
  candidate: KubeObject,
  match: LabelSelector | null | ((obj: KubeObject) => boolean),
): ClaimDecision {
  const matches =
    typeof match === 'function'
      ? match(candidate)
      : compileLabelSelector(match).matches(candidate.metadata?.labels);
  const ownerDeleting = owner.deletionTimestamp != null;
  const ref = controllerRef(candidate);
  if (ref !== undefined) {
    if (ref.uid !== owner.uid) return 'ignore';
    if (matches) return 'keep';
    return ownerDeleting ? 'ignore' : 'release';
  }
  if (ownerDeleting || !matches) return 'ignore';
  if (candidate.metadata?.deletionTimestamp != null) return 'ignore';
  if (owner.namespace && owner.namespace !== candidate.metadata?.namespace) return 'ignore';
  return 'adopt';
}

/** The candidates by claim decision (`ignore`d ones are left out). */
export interface ClaimPlan<T extends KubeObject> {
  keep: T[];
  adopt: T[];
  release: T[];
}

/**
 * `ClaimObjects` for a list of candidates (a UID seen twice counts once): what to keep, adopt and release. The
 * writes are the caller's, with {@link adoptPatch} / {@link releasePatch}.
 */
export function planClaims<T extends KubeObject>(
  owner: ClaimOwner,
  candidates: readonly T[],
  match: LabelSelector | null | ((obj: KubeObject) => boolean),
): ClaimPlan<T> {
  const plan: ClaimPlan<T> = { keep: [], adopt: [], release: [] };
  const seen = new Set<string>();
  for (const c of candidates) {
    const uid = c.metadata?.uid ?? '';
    if (seen.has(uid)) continue;
    seen.add(uid);
    const decision = decideClaim(owner, c, match);
    if (decision !== 'ignore') plan[decision].push(c);
  }
  return plan;
}

/** True for the decisions whose object belongs to the owner after the claim succeeds. */
export function isClaimed(decision: ClaimDecision): boolean {
  return decision === 'keep' || decision === 'adopt';
}

/**
 * Strategic-merge patch that adopts `obj` (built-in kinds): adds the controller reference and pins the object's UID,
 * so the patch fails instead of adopting a re-created object of the same name.
 */
export function adoptPatch(obj: KubeObject, ref: OwnerReference): Record<string, unknown> {
  return { metadata: { ownerReferences: [ref], uid: requireUid(obj) } };
}

/** Strategic-merge patch that releases `obj` from the owner with `ownerUid` (built-in kinds), UID pinned. */
export function releasePatch(obj: KubeObject, ownerUid: string): Record<string, unknown> {
  return { metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: requireUid(obj) } };
}

/**
 * JSON merge patch equivalents for custom resources, which do not support strategic merge: the whole
 * ownerReferences list is written, guarded by the object's resourceVersion (a conflict means: re-read and retry).
 */
export function adoptMergePatch(obj: KubeObject, ref: OwnerReference): Record<string, unknown> {
  const refs = (obj.metadata?.ownerReferences ?? []).filter((r) => r.uid !== ref.uid);
  return {
    metadata: {
      ownerReferences: [...refs, ref],
      uid: requireUid(obj),
      resourceVersion: obj.metadata?.resourceVersion,
    },
  };
}

export function releaseMergePatch(obj: KubeObject, ownerUid: string): Record<string, unknown> {
  const refs = (obj.metadata?.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
  return {
    metadata: {
      ownerReferences: refs.length > 0 ? refs : null,
      uid: requireUid(obj),
      resourceVersion: obj.metadata?.resourceVersion,
    },
  };
}

function requireUid(obj: KubeObject): string {
  const uid = obj.metadata?.uid;
  if (!uid)
    throw new OwnerReferenceError('the object has no metadata.uid; use an object read from the API server');
  return uid;
}
