/**
 * Event handlers and predicates, as controller-runtime's `handler` and `predicate` packages: what turns an observed
 * change into reconcile requests. Pure functions of the change; a controller kit wires them to caches and the queue.
 */
import { controllerRef, splitApiVersion, type Change, type KubeObject } from '@regatta/kube';
import type { Expectations } from './expectations.js';
import { requestKey, type Request } from './reconcile.js';

/** Whether a change is worth a reconcile (controller-runtime's `predicate.Predicate`, one function for all events). */
export type Predicate<T extends KubeObject = KubeObject> = (change: Change<T>) => boolean;

/** Maps a change to the requests to reconcile (controller-runtime's `handler.MapFunc`). */
export type MapFunc<T extends KubeObject = KubeObject> = (change: Change<T>) => readonly Request[];

/** A kind named the way owner references name it. */
export interface OwnerKind {
  /** `apps.kruise.io`; '' for the core group. */
  group: string;
  kind: string;
  /**
   * False for a cluster-scoped owner (a ResourceDistribution): its request has no namespace, whatever the owned
   * object's (controller-runtime takes the owner's scope from its REST mapping). Default true.
   */
  namespaced?: boolean;
}

/** The request naming the object itself (controller-runtime's `EnqueueRequestForObject`). */
export function requestForObject(obj: KubeObject): Request {
  const m = obj.metadata ?? {};
  return { ...(m.namespace ? { namespace: m.namespace } : {}), name: m.name ?? '' };
}

/** The request of `obj`'s controller when that controller is of `owner`'s kind; undefined otherwise. */
export function controllerRequest(owner: OwnerKind, obj: KubeObject): Request | undefined {
  const ref = controllerRef(obj);
  if (!ref || ref.kind !== owner.kind || splitApiVersion(ref.apiVersion).group !== owner.group) return undefined;
  const namespace = owner.namespaced === false ? undefined : obj.metadata?.namespace;
  return { ...(namespace ? { namespace } : {}), name: ref.name };
}

/**
 * controller-runtime's `EnqueueRequestForOwner(..., OnlyControllerOwner())`: the owner of the object, and on an
 * update that moved the object from one owner to another, the previous owner too.
 */
export function enqueueForOwner(owner: OwnerKind): MapFunc {
  return (change) => {
    const now = controllerRequest(owner, change.object);
    const before = change.old ? controllerRequest(owner, change.old) : undefined;
    if (now && before && requestKey(now) !== requestKey(before)) return [now, before];
    const req = now ?? before;
    return req ? [req] : [];
  };
}

/**
 * Records what an owner's expectations wait for (OpenKruise's pod event handler, `pkg/controller/cloneset/
 * cloneset_event_handler.go`): a create or a delete seen, and, with `updates`, the resourceVersion of an update seen.
 * `key` is the owner's request key ({@link requestKey}), the same key the reconciler expects under.
 */
export function observeOwned(
  expectations: Expectations,
  key: string,
  change: Change,
  { updates }: { updates: boolean },
): void {
  const name = change.object.metadata?.name ?? '';
  const deleting = change.object.metadata?.deletionTimestamp != null;
  if (change.type === 'add') {
    expectations.observeScale(key, 'create', name);
    if (deleting) expectations.observeScale(key, 'delete', name);
  } else if (change.type === 'delete') {
    expectations.observeScale(key, 'create', name);
    expectations.observeScale(key, 'delete', name);
    if (updates) expectations.deleteUpdated(key, name);
  } else {
    if (deleting) expectations.observeScale(key, 'delete', name);
    const rv = change.object.metadata?.resourceVersion;
    if (updates && rv) expectations.observeUpdated(key, name, rv);
  }
}

/** Metadata that changes on every write without saying anything about the object's intent. */
const METADATA_NOISE = new Set(['resourceVersion', 'managedFields', 'generation']);

/** The object without `status` and without metadata noise, for comparing two states of it. */
function intent(obj: KubeObject): unknown {
  const { status: _status, metadata, ...rest } = obj as KubeObject & { status?: unknown };
  const meta = Object.fromEntries(Object.entries(metadata ?? {}).filter(([k]) => !METADATA_NOISE.has(k)));
  return { ...rest, metadata: meta };
}

/**
 * Drops updates whose only difference is `status` (and resourceVersion/managedFields noise) while the generation is
 * unchanged: a controller's own status write never requeues the object it describes. Adds, deletes, and updates to
 * spec, labels, annotations, finalizers, owner references or the deletion timestamp pass.
 */
export const ignoreStatusOnlyUpdates: Predicate = (change) => {
  if (change.type !== 'update' || !change.old) return true;
  const gen = change.object.metadata?.generation;
  if (gen !== undefined && gen !== change.old.metadata?.generation) return true;
  return !deepEqual(intent(change.old), intent(change.object));
};

/** Structural equality of JSON values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual(ra[k], rb[k]));
}
