/**
 * REST mapping of kinds to resources: plural name and scope. The kinds the controllers use are known statically
 * (no discovery round-trip, and they work before discovery caches warm up); others are resolved by discovery in
 * {@link KubeClient}. Plural and scope belong to the group and kind, not the version, so one entry serves every
 * version of a kind (CloneSet v1alpha1 and v1beta1 alike).
 */
import { splitApiVersion } from './meta.js';

export interface ResourceInfo {
  /** API group, `''` for core. */
  group: string;
  kind: string;
  /** The resource name in URLs, e.g. `clonesets`. */
  plural: string;
  namespaced: boolean;
}

const entry = (group: string, kind: string, plural: string, namespaced: boolean): ResourceInfo => ({
  group,
  kind,
  plural,
  namespaced,
});

const KRUISE = 'apps.kruise.io';

export const KNOWN_RESOURCES: readonly ResourceInfo[] = [
  entry('', 'Pod', 'pods', true),
  entry('', 'PersistentVolumeClaim', 'persistentvolumeclaims', true),
  entry('', 'PersistentVolume', 'persistentvolumes', false),
  entry('', 'Node', 'nodes', false),
  entry('', 'Namespace', 'namespaces', false),
  entry('', 'Event', 'events', true),
  entry('', 'ConfigMap', 'configmaps', true),
  entry('', 'Secret', 'secrets', true),
  entry('', 'Service', 'services', true),
  entry('', 'ServiceAccount', 'serviceaccounts', true),
  entry('events.k8s.io', 'Event', 'events', true),
  entry('apps', 'ControllerRevision', 'controllerrevisions', true),
  entry('apps', 'Deployment', 'deployments', true),
  entry('apps', 'ReplicaSet', 'replicasets', true),
  entry('apps', 'StatefulSet', 'statefulsets', true),
  entry('apps', 'DaemonSet', 'daemonsets', true),
  entry('coordination.k8s.io', 'Lease', 'leases', true),
  entry('storage.k8s.io', 'StorageClass', 'storageclasses', false),
  entry('apiextensions.k8s.io', 'CustomResourceDefinition', 'customresourcedefinitions', false),
  entry('admissionregistration.k8s.io', 'MutatingWebhookConfiguration', 'mutatingwebhookconfigurations', false),
  entry('admissionregistration.k8s.io', 'ValidatingWebhookConfiguration', 'validatingwebhookconfigurations', false),
  entry(KRUISE, 'CloneSet', 'clonesets', true),
  entry(KRUISE, 'StatefulSet', 'statefulsets', true),
  entry(KRUISE, 'DaemonSet', 'daemonsets', true),
  entry(KRUISE, 'SidecarSet', 'sidecarsets', false),
  entry(KRUISE, 'UnitedDeployment', 'uniteddeployments', true),
  entry(KRUISE, 'ResourceDistribution', 'resourcedistributions', false),
  entry(KRUISE, 'ImagePullJob', 'imagepulljobs', true),
  entry(KRUISE, 'NodeImage', 'nodeimages', false),
];

const byGroupKind = new Map(KNOWN_RESOURCES.map((r) => [`${r.group}/${r.kind}`, r]));

/** The static mapping for a kind, if it is one of {@link KNOWN_RESOURCES}. */
export function knownResource(apiVersion: string, kind: string): ResourceInfo | undefined {
  return byGroupKind.get(`${splitApiVersion(apiVersion).group}/${kind}`);
}

/** `/api/v1` for the core group, `/apis/<group>/<version>` otherwise. */
export function apiVersionPath(apiVersion: string): string {
  return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
}

/**
 * The URL path of a collection, an object or a subresource. `namespace` is ignored for cluster-scoped resources;
 * a namespaced resource without one addresses all namespaces (valid for list only).
 */
export function resourcePath(
  info: ResourceInfo,
  apiVersion: string,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): string {
  let p = apiVersionPath(apiVersion);
  if (info.namespaced && namespace) p += `/namespaces/${encodeURIComponent(namespace)}`;
  p += `/${info.plural}`;
  if (name !== undefined) p += `/${encodeURIComponent(name)}`;
  if (subresource !== undefined) p += `/${subresource}`;
  return p;
}

/**
 * A field selector string from a map, escaping `\`, `,` and `=` in values as apimachinery's `fields.EscapeValue`:
 * `{ 'spec.nodeName': 'n1' }` → `spec.nodeName=n1`.
 */
export function fieldSelectorToString(fields: Readonly<Record<string, string>>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}=${v.replace(/[\\,=]/g, (c) => `\\${c}`)}`)
    .join(',');
}
