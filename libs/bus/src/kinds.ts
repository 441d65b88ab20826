import { KIND_TABLE, type KindRef, type KubeObject } from '@regatta/kube';

/** Which Kubernetes resource a mirror bucket holds: `KindRef` of `@regatta/kube` (docs/adr/0071). */
export type { Kind, KindRef } from '@regatta/kube';

/** The workspace's one object type (`@regatta/kube`); the bus reads only its metadata. */
export type { KubeObject } from '@regatta/kube';

/** Key of cluster-scoped objects' namespace position. */
export const CLUSTER_SCOPE = '_';

/**
 * The key the watcher puts in a mirror bucket once a complete list of the kind is in it (no object key holds '=').
 * Until then the bucket may hold only part of the kind (a watcher filling an empty bus), and a cache of it has not
 * synced: a controller that acted on it would see a workload without its pods (docs/adr/0057).
 */
export const LISTED_KEY = '=listed';

/** `pods.v1`, `clonesets.v1alpha1.apps.kruise.io`: how kinds are named in registrations and logs. */
export function resourceId(k: KindRef): string {
  return k.group ? `${k.plural}.${k.version}.${k.group}` : `${k.plural}.${k.version}`;
}

/** The mirror bucket of a kind: `mirror_<plural>_<version>_<group with dots as dashes>` (`core` for ''). */
export function bucketName(k: KindRef): string {
  const group = k.group ? k.group.replaceAll('.', '-') : 'core';
  return `mirror_${k.plural}_${k.version}_${group}`;
}

/** `<namespace>.<name>`, or `_.<name>` for cluster-scoped objects. Namespaces never contain dots. */
export function objectKey(namespace: string | undefined, name: string): string {
  return `${namespace || CLUSTER_SCOPE}.${name}`;
}

export function keyOf(obj: KubeObject): string {
  const name = obj.metadata?.name;
  if (!name) throw new TypeError('object has no metadata.name');
  return objectKey(obj.metadata?.namespace, name);
}

/** Splits a key back into namespace (undefined when cluster-scoped) and name. */
export function parseKey(key: string): { namespace?: string; name: string } {
  const dot = key.indexOf('.');
  const ns = key.slice(0, dot);
  const name = key.slice(dot + 1);
  return ns === CLUSTER_SCOPE ? { name } : { namespace: ns, name };
}

const { pods, nodes, namespaces, persistentvolumeclaims, configmaps, secrets, controllerrevisions } = KIND_TABLE;
const { clonesets, statefulsets, daemonsets, sidecarsets, resourcedistributions, uniteddeployments } = KIND_TABLE;
const { appsstatefulsets, deployments, imagepulljobs, nodeimages, broadcastjobs } = KIND_TABLE;
const { advancedcronjobs, jobs } = KIND_TABLE;

/**
 * The kinds Regatta's controllers read, by short name, untyped.
 * @deprecated kit v2: import KINDS from @regatta/api (the same entries, typed; docs/adr/0071-one-typed-kind-registry.md)
 */
export const KINDS = {
  pods,
  nodes,
  namespaces,
  persistentvolumeclaims,
  configmaps,
  secrets,
  controllerrevisions,
  clonesets,
  statefulsets,
  daemonsets,
  sidecarsets,
  resourcedistributions,
  uniteddeployments,
  appsstatefulsets,
  deployments,
  imagepulljobs,
  nodeimages,
  broadcastjobs,
  advancedcronjobs,
  jobs,
} as const satisfies Record<string, KindRef>;
