/**
 * A kind as the whole workspace names it (docs/adr/0071-one-typed-kind-registry.md): where it is served (group,
 * version, resource plural, scope) and, at the type level only, the TypeScript type of its objects. The registry of
 * the kinds Regatta reads is `KINDS` of `@regatta/api`; the kube client, the bus, the watcher's catalogue and the
 * controller kit all take these values, so a reader declared for `KINDS.pods` is a reader of `Pod`.
 */
import type { KubeObject } from './meta.js';

/** Which Kubernetes resource (group, version, plural, scope), untyped: what the bus and the watcher need. */
export interface KindRef {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The resource name in URLs and bus buckets, e.g. `clonesets`. */
  readonly plural: string;
  readonly namespaced: boolean;
}

declare const objectType: unique symbol;

/**
 * A {@link KindRef} that carries the type of its objects. The type is a phantom (never set at run time): a
 * `Kind<Pod>` is a `Kind<KubeObject>` too, so code that only needs the resource takes `KindRef` or `Kind`.
 */
export interface Kind<T extends KubeObject = KubeObject> extends KindRef {
  readonly [objectType]?: T;
}

/** The type of a kind's objects: `ObjectOf<typeof KINDS.pods>` is `Pod`. */
export type ObjectOf<K> = K extends Kind<infer T> ? T : never;

/** Declares a kind with the type of its objects: `kind<Pod>()({ group: '', version: 'v1', … })`. */
export function kind<T extends KubeObject>(): (ref: KindRef) => Kind<T> {
  return (ref) => ref;
}

/** `<group>/<version>`, or `<version>` for the core group: the apiVersion of the kind's objects. */
export function apiVersionOf(k: KindRef): string {
  return k.group ? `${k.group}/${k.version}` : k.version;
}

/** The same kind served at another version (UnitedDeployment's v1alpha1 next to its stored v1beta1). */
export function atVersion<T extends KubeObject>(k: Kind<T>, version: string): Kind<T> {
  return { ...k, version };
}
