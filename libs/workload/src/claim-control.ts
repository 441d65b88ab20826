/**
 * Claiming a workload's pods, with the writes (OpenKruise `pkg/controller/cloneset/cloneset_controller.go`
 * `claimPods`, Kubernetes' `ControllerRefManager`): orphans in its namespace that match the selector are adopted,
 * owned objects that no longer match are released. An adoption is preceded by a live read of the workload (the
 * cached one may be stale, or deleted and re-created under the same name).
 *
 * Built-in kinds are written with strategic-merge patches (owner references merge by uid). Custom resources (a
 * CloneSet claimed by a UnitedDeployment) take JSON merge patches of the whole list, guarded by the cached
 * resourceVersion; a conflict there is retried on a fresh read, decided again.
 */
import {
  type KubeObject,
  type LabelSelector,
  type ClaimDecision,
  adoptMergePatch,
  adoptPatch,
  claimOwnerOf,
  decideClaim,
  isConflict,
  isNotFound,
  newControllerRef,
  planClaims,
  releaseMergePatch,
  releasePatch,
} from '@regatta/kube';
import type { ControlLogger, KubeWriter, OnWritten, WorkloadKind } from './types.js';

export interface ClaimInput<T extends KubeObject> {
  /** The workload (its uid, namespace and name). */
  owner: KubeObject;
  ownerKind: WorkloadKind;
  /** apiVersion and kind of the claimed objects. */
  kind: { apiVersion: string; kind: string };
  selector: LabelSelector | null | undefined;
  /** Objects whose controller reference names the owner. */
  owned: readonly T[];
  /** Objects in the owner's namespace without a controller. */
  orphans: readonly T[];
  /** `strategic` (built-in kinds, the default) or `merge` (custom resources, which take no strategic merge). */
  patchType?: 'strategic' | 'merge';
}

/** Attempts of a merge-patch claim write whose resourceVersion guard failed (each on a fresh read). */
const MERGE_ATTEMPTS = 3;

export interface ClaimControlDeps {
  client: Pick<KubeWriter, 'get' | 'patch'>;
  log: ControlLogger;
  /** Each adopted object as the server answered. */
  onWritten?: OnWritten;
}

/**
 * The objects the workload controls after claiming. A vanished or changed object (NotFound, or the UID
 * precondition's Conflict) is left to the next round; other errors are thrown.
 */
export async function claim<T extends KubeObject>(
  deps: ClaimControlDeps,
  input: ClaimInput<T>,
): Promise<T[]> {
  const { owner, kind } = input;
  const decisions = planClaims(
    claimOwnerOf(owner),
    [...input.owned, ...input.orphans],
    input.selector ?? null,
  );
  const claimed = [...decisions.keep];
  let canAdopt: boolean | undefined;
  for (const obj of decisions.adopt) {
    canAdopt ??= await ownerStillThere(deps, input);
    if (!canAdopt) break;
    try {
      const out = await writeClaim(deps, input, obj, 'adopt');
      if (!out) continue;
      deps.onWritten?.(out);
      claimed.push(out);
      deps.log.info(
        { [kind.kind.toLowerCase()]: obj.metadata?.name },
        'adopted an orphan matching the selector',
      );
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
  for (const obj of decisions.release) {
    try {
      const out = await writeClaim(deps, input, obj, 'release');
      if (!out) continue;
      deps.log.info(
        { [kind.kind.toLowerCase()]: obj.metadata?.name },
        'released an object that no longer matches the selector',
      );
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
  return claimed;
}

/**
 * Adopts or releases `obj`; the object as the server answered (or, merge patches after a conflict, as a fresh read
 * shows it already adopted), or undefined when the fresh read decides otherwise.
 */
async function writeClaim<T extends KubeObject>(
  deps: ClaimControlDeps,
  input: ClaimInput<T>,
  obj: T,
  decision: Extract<ClaimDecision, 'adopt' | 'release'>,
): Promise<T | undefined> {
  const { owner, kind } = input;
  const ref = { ...kind, namespace: owner.metadata?.namespace, name: obj.metadata?.name ?? '' };
  const ownerUid = owner.metadata?.uid ?? '';
  if (input.patchType !== 'merge') {
    const patch =
      decision === 'adopt' ? adoptPatch(obj, newControllerRef(owner, input.ownerKind)) : releasePatch(obj, ownerUid);
    return deps.client.patch<T>(ref, patch, { type: 'strategic' });
  }
  let current = obj;
  for (let attempt = 1; ; attempt++) {
    const patch =
      decision === 'adopt'
        ? adoptMergePatch(current, newControllerRef(owner, input.ownerKind))
        : releaseMergePatch(current, ownerUid);
    try {
      return await deps.client.patch<T>(ref, patch, { type: 'merge' });
    } catch (err) {
      if (!isConflict(err) || attempt >= MERGE_ATTEMPTS) throw err;
      const fresh = await deps.client.get<T>(ref);
      if (fresh.metadata?.uid !== obj.metadata?.uid) return undefined;
      const again = decideClaim(claimOwnerOf(owner), fresh, input.selector ?? null);
      // adopted meanwhile (by this owner's earlier round): claimed all the same
      if (decision === 'adopt' && again === 'keep') return fresh;
      if (again !== decision) return undefined;
      current = fresh;
    }
  }
}

async function ownerStillThere<T extends KubeObject>(
  deps: ClaimControlDeps,
  input: ClaimInput<T>,
): Promise<boolean> {
  const { owner } = input;
  try {
    const fresh = await deps.client.get({
      ...input.ownerKind,
      namespace: owner.metadata?.namespace,
      name: owner.metadata?.name ?? '',
    });
    return fresh.metadata?.uid === owner.metadata?.uid && !fresh.metadata?.deletionTimestamp;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
