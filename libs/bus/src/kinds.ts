import type { KubeObject } from '@regatta/kube';

/** Which Kubernetes resource a mirror bucket holds. */
export interface KindRef {
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

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

/** The kinds Regatta's controllers read, by short name. */
export const KINDS = {
  pods: { group: '', version: 'v1', kind: 'Pod', plural: 'pods', namespaced: true },
  nodes: { group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
  namespaces: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  persistentvolumeclaims: {
    group: '',
    version: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
  },
  configmaps: { group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  secrets: { group: '', version: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  controllerrevisions: {
    group: 'apps',
    version: 'v1',
    kind: 'ControllerRevision',
    plural: 'controllerrevisions',
    namespaced: true,
  },
  clonesets: {
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    kind: 'CloneSet',
    plural: 'clonesets',
    namespaced: true,
  },
  statefulsets: {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
  },
  // v1beta1: the stored version OpenKruise's controller works on (v1alpha1 is converted)
  daemonsets: {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
  },
  // cluster-scoped; v1alpha1 as libs/mirror's catalogue and allow-list mirror it
  sidecarsets: {
    group: 'apps.kruise.io',
    version: 'v1alpha1',
    kind: 'SidecarSet',
    plural: 'sidecarsets',
    namespaced: false,
  },
  // cluster-scoped; v1beta1, the stored version (the mirror scrubs an embedded Secret's data, libs/bus envelope.ts)
  resourcedistributions: {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'ResourceDistribution',
    plural: 'resourcedistributions',
    namespaced: false,
  },
  // UnitedDeployment (v1beta1: the stored version OpenKruise's controller works on) and the native kinds its subsets
  // may be
  uniteddeployments: {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'UnitedDeployment',
    plural: 'uniteddeployments',
    namespaced: true,
  },
  appsstatefulsets: { group: 'apps', version: 'v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true },
  deployments: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  // image pre-warming: v1beta1, the stored version OpenKruise's controllers work on; NodeImage is cluster-scoped
  imagepulljobs: {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'ImagePullJob',
    plural: 'imagepulljobs',
    namespaced: true,
  },
  // cluster-scoped, one per Node (key `_.<node>`); a node agent reads only its own key (docs/adr/0032)
  nodeimages: {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'NodeImage',
    plural: 'nodeimages',
    namespaced: false,
  },
} as const satisfies Record<string, KindRef>;
