/**
 * Annotations, condition and env names of the in-place update engine (`apis/apps/pub/inplace_update.go`); the keys
 * users and other controllers share are defined once in `@regatta/api`.
 */
import { Annotations, PodConditionTypes } from '@regatta/api';

/** Pod readiness gate and condition: `False` while an in-place update runs, `True` once it completed. */
export const INPLACE_UPDATE_READY = PodConditionTypes.InPlaceUpdateReady;

/** Reason of the `InPlaceUpdateReady=False` condition written before an update. */
export const START_INPLACE_UPDATE_REASON = 'StartInPlaceUpdate';

/** Pod annotation: JSON `InPlaceUpdateState` of the latest in-place update. */
export const INPLACE_UPDATE_STATE_KEY: string = Annotations.InPlaceUpdateState;
/** Old key of the state annotation, still read (and removed on the next update). */
export const INPLACE_UPDATE_STATE_KEY_OLD = 'inplace-update-state';

/** Pod annotation: JSON `UpdateSpec` waiting for `gracePeriodSeconds` to pass. */
export const INPLACE_UPDATE_GRACE_KEY: string = Annotations.InPlaceUpdateGrace;
/** Old key of the grace annotation, still read and removed. */
export const INPLACE_UPDATE_GRACE_KEY_OLD = 'inplace-update-grace';

/** Pod annotation written by the node daemon: runtime container IDs and hashes. */
export const RUNTIME_CONTAINERS_META_KEY = Annotations.RuntimeContainersMeta;

/** Container env injected by the pod webhook: `valueFrom.configMapKeyRef.key = p_<priority>`. */
export const CONTAINER_BARRIER_ENV = 'KRUISE_CONTAINER_BARRIER';
/** Container env set by users: launch (and in-place update) priority, higher first. */
export const CONTAINER_PRIORITY_ENV = 'KRUISE_CONTAINER_PRIORITY';
/** Pod annotation: `Ordered` = containers start (and update) in spec order. */
export const CONTAINER_LAUNCH_PRIORITY_KEY = Annotations.ContainerLaunchPriority;

/** Env names never treated as references to metadata (SidecarSet hot-upgrade versions). */
export const EXCLUDED_METADATA_ENVS: ReadonlySet<string> = new Set([
  'SIDECARSET_VERSION',
  'SIDECARSET_VERSION_ALT',
]);
