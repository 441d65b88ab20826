/** The lifecycle label, annotation and states (`apis/apps/pub/lifecycle.go`), as defined once in `@regatta/api`. */
import { Annotations, Labels, LifecycleStates } from '@regatta/api';

/** Pod label holding the lifecycle state. */
export const LIFECYCLE_STATE_KEY = Labels.LifecycleState;

/** Pod annotation: RFC 3339 time of the last state write. */
export const LIFECYCLE_TIMESTAMP_KEY = Annotations.LifecycleTimestamp;

/**
 * The lifecycle states. A pod without the label is in state `""`, treated like `Normal` for availability.
 * - PreparingNormal: created, not yet allowed to serve (waits for scheduling or the preNormal hook);
 * - Normal: serving; the only state besides `""` in which a pod counts as available;
 * - PreparingUpdate: chosen for an in-place update, held by the inPlaceUpdate hook;
 * - Updating: the in-place update is written and running;
 * - Updated: the in-place update finished; waits for the inPlaceUpdate hook to be put back;
 * - PreparingDelete: chosen for deletion, held by the preDelete hook.
 */
export const LifecycleState = LifecycleStates;

/** One of the {@link LifecycleState} values. */
export type LifecycleStateType = (typeof LifecycleState)[keyof typeof LifecycleState];

/** userAgent of the lifecycle's `KruisePodReady` not-ready keys. */
export const LIFECYCLE_USER_AGENT = 'Lifecycle';
/** Not-ready key held while in PreparingDelete (never removed by the lifecycle: the pod is going away). */
export const PRE_DELETE_HOOK_KEY = 'preDeleteHook';
/** Not-ready key held from PreparingUpdate until Updated. */
export const PRE_UPDATE_HOOK_KEY = 'preUpdateHook';
