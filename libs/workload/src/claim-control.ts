/**
 * Claiming a workload's pods, with the writes (OpenKruise `pkg/controller/cloneset/cloneset_controller.go`
 * `claimPods`, Kubernetes' `ControllerRefManager`): orphans in its namespace that match the selector are adopted,
 * owned objects that no longer match are released. An adoption is preceded by a live read of the workload (the
 * cached one may be stale, or deleted and re-created under the same name).
 */
import {
  type KubeObject,
  type LabelSelector,
  adoptPatch,
  claimOwnerOf,
  isConflict,
  isNotFound,
  newControllerRef,
  planClaims,
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
}

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
  const ns = owner.metadata?.namespace;
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
      const out = await deps.client.patch<T>(
        { ...kind, namespace: ns, name: obj.metadata?.name ?? '' },
        adoptPatch(obj, newControllerRef(owner, input.ownerKind)),
        { type: 'strategic' },
      );
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
      await deps.client.patch(
        { ...kind, namespace: ns, name: obj.metadata?.name ?? '' },
        releasePatch(obj, owner.metadata?.uid ?? ''),
        { type: 'strategic' },
      );
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
