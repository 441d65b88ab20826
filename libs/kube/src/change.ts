import type { KubeObject } from './meta.js';

/** What happened to an object, as an informer reports it. */
export type ChangeType = 'add' | 'update' | 'delete';

/**
 * One observed change of an object: the single change-event shape of the workspace. The bus cache emits it, the
 * controller kit's predicates and mappings read it, controllers' event handlers receive it.
 */
export interface Change<T extends KubeObject = KubeObject> {
  type: ChangeType;
  object: T;
  /** The previous state, on update and delete. */
  old?: T;
  /** Milliseconds from the change being observed at the source to this process receiving it. */
  lagMs?: number;
  /**
   * Part of the cache's first read, before it synced: an object as found at start, not a change made now
   * (controller-runtime's `IsInInitialList`); its reconcile is queued at low priority.
   */
  inInitialList?: boolean;
}
