/**
 * The lifecycle state machine decisions a workload controller takes each reconcile (CloneSet `refreshPodState`,
 * `updatePod`, `deletePods`, `managePreparingDelete`; Advanced StatefulSet uses the same rules).
 *
 * ```
 * create ─► PreparingNormal ─(no preNormal: scheduled | preNormal: all-hooked)─► Normal
 * Normal ─(in-place chosen, inPlaceUpdate hooked)─► PreparingUpdate ─(hook released)─► Updating
 * Normal ─(in-place chosen, not hooked)─► Updating ─(update completed)─► Updated | Normal
 * PreparingUpdate ─(pod already at the update revision)─► Updated | Normal
 * Updated ─(no inPlaceUpdate hook, or all-hooked again)─► Normal;  Updated ─(update again)─► PreparingUpdate (re-hook)
 * any ─(deleted, preDelete hooked)─► PreparingDelete ─(hook released)─► deleted
 * PreparingDelete ─(replicas raised, no markPodNotReady hook)─► PreparingNormal
 * ```
 */
import { type Lifecycle, isLifecycleMarkPodNotReady, isPodAllHooked, isPodHooked } from './hooks.js';
import { LifecycleState, type LifecycleStateType } from './keys.js';
import { type Pod, isPodScheduled } from './pod.js';
import { getPodLifecycleState } from './state.js';

/** A pod is asked to update in place while its state does not allow it. */
export class LifecycleStateError extends Error {
  readonly code = 'REGATTA_LIFECYCLE_STATE_NOT_ALLOWED';

  constructor(
    readonly podName: string,
    readonly state: string,
  ) {
    super(`not allowed to in-place update pod ${podName} in state ${state}`);
    this.name = 'LifecycleStateError';
  }
}

export interface RefreshFacts {
  /** The pod is at the update revision (CloneSet: full name or short hash). */
  atUpdateRevision: boolean;
  /** The pod's in-place update has completed (`checkPodUpdateCompleted`); only read in `Updating`. */
  inPlaceUpdateCompleted: boolean;
}

/** After an in-place update: `Updated` when a lifecycle is set and the inPlaceUpdate hook is not all-hooked, else `Normal`. */
function afterUpdate(pod: Pod, lifecycle: Lifecycle | null | undefined): LifecycleStateType {
  return lifecycle && !isPodAllHooked(lifecycle.inPlaceUpdate, pod)
    ? LifecycleState.Updated
    : LifecycleState.Normal;
}

/**
 * The state a pod should move to before any update decision (`refreshPodState`), or `undefined` to stay. Apply it
 * with `transition(pod, state, now, { markPodNotReady: lifecycle.inPlaceUpdate?.markPodNotReady })`.
 */
export function refreshLifecycleState(
  pod: Pod,
  lifecycle: Lifecycle | null | undefined,
  facts: RefreshFacts,
): LifecycleStateType | undefined {
  switch (getPodLifecycleState(pod)) {
    case LifecycleState.PreparingNormal: {
      const normal = lifecycle?.preNormal ? isPodAllHooked(lifecycle.preNormal, pod) : isPodScheduled(pod);
      return normal ? LifecycleState.Normal : undefined;
    }
    case LifecycleState.PreparingUpdate:
      return facts.atUpdateRevision ? afterUpdate(pod, lifecycle) : undefined;
    case LifecycleState.Updating:
      return facts.inPlaceUpdateCompleted ? afterUpdate(pod, lifecycle) : undefined;
    case LifecycleState.Updated:
      return !lifecycle?.inPlaceUpdate || isPodAllHooked(lifecycle.inPlaceUpdate, pod)
        ? LifecycleState.Normal
        : undefined;
    default:
      return undefined;
  }
}

/** What to do with a pod chosen for an in-place update, before touching its containers. */
export type InPlaceUpdateStep =
  /** Update it now (the in-place write also sets the state to `Updating`). */
  | { action: 'update' }
  /** Move it to `PreparingUpdate` and stop (the inPlaceUpdate hook holds it); apply the hook's markPodNotReady. */
  | { action: 'prepareUpdate'; markPodNotReady: boolean }
  /** An `Updated` pod: move it to `PreparingUpdate` re-adding the hook marks (`transition(..., { rehook })`) and stop. */
  | { action: 'rehook' }
  /** `PreparingUpdate` and still hooked: wait. */
  | { action: 'wait' };

/**
 * The lifecycle switch of CloneSet `updatePod` for the in-place path. Throws {@link LifecycleStateError} for states
 * that cannot be updated in place (`PreparingDelete` and unknown values).
 */
export function inPlaceUpdateStep(pod: Pod, lifecycle: Lifecycle | null | undefined): InPlaceUpdateStep {
  const state = getPodLifecycleState(pod);
  switch (state) {
    case '':
    case LifecycleState.PreparingNormal:
    case LifecycleState.Normal:
      if (lifecycle && isPodHooked(lifecycle.inPlaceUpdate, pod)) {
        return {
          action: 'prepareUpdate',
          markPodNotReady: lifecycle.inPlaceUpdate?.markPodNotReady === true,
        };
      }
      return { action: 'update' };
    case LifecycleState.Updated:
      return { action: 'rehook' };
    case LifecycleState.PreparingUpdate:
      return lifecycle && isPodHooked(lifecycle.inPlaceUpdate, pod)
        ? { action: 'wait' }
        : { action: 'update' };
    case LifecycleState.Updating:
      return { action: 'update' };
    default:
      throw new LifecycleStateError(pod.metadata?.name ?? '', state);
  }
}

/** What deleting a pod means under the lifecycle (`deletePods`). */
export type DeleteStep =
  /** The preDelete hook holds it: move it to `PreparingDelete` (with the hook's markPodNotReady) instead. */
  | { action: 'prepareDelete'; markPodNotReady: boolean }
  /** DELETE it (and its PVCs). */
  | { action: 'delete' };

/** `deletePods`: a pod hooked by preDelete goes to `PreparingDelete`, any other is deleted. */
export function deleteStep(pod: Pod, lifecycle: Lifecycle | null | undefined): DeleteStep {
  if (lifecycle && isPodHooked(lifecycle.preDelete, pod)) {
    return { action: 'prepareDelete', markPodNotReady: lifecycle.preDelete?.markPodNotReady === true };
  }
  return { action: 'delete' };
}

/**
 * `managePreparingDelete`: whether PreparingDelete pods may be brought back (to `PreparingNormal`) when replicas are
 * raised — never when the preDelete or inPlaceUpdate hook has `markPodNotReady`.
 */
export function canCancelPreparingDelete(lifecycle: Lifecycle | null | undefined): boolean {
  return !isLifecycleMarkPodNotReady(lifecycle);
}
