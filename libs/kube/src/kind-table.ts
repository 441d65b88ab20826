/**
 * Every kind the workspace addresses, once (docs/adr/0071-one-typed-kind-registry.md): group, the version Regatta
 * reads and writes, plural and scope. The kube client maps kinds to URLs with it (no discovery round-trip, so it
 * works before discovery caches warm up); `KINDS` of `@regatta/api` gives the entries controllers read their
 * TypeScript types; the bus, the watcher's catalogue and the kit take those. Plural and scope belong to the group
 * and kind, not the version: the client serves every version of a kind from one entry (CloneSet v1alpha1 and
 * v1beta1 alike).
 */
import type { KindRef } from './kind.js';

const core = (kind: string, plural: string, namespaced: boolean): KindRef => ({
  group: '',
  version: 'v1',
  kind,
  plural,
  namespaced,
});
const v1 = (group: string, kind: string, plural: string, namespaced: boolean): KindRef => ({
  group,
  version: 'v1',
  kind,
  plural,
  namespaced,
});
const kruise = (kind: string, plural: string, version: string, namespaced: boolean): KindRef => ({
  group: 'apps.kruise.io',
  version,
  kind,
  plural,
  namespaced,
});

/** The kinds by short name (the bus's and the kit's names: `pods`, `clonesets`, `appsstatefulsets`). */
export const KIND_TABLE = {
  pods: core('Pod', 'pods', true),
  nodes: core('Node', 'nodes', false),
  namespaces: core('Namespace', 'namespaces', false),
  persistentvolumeclaims: core('PersistentVolumeClaim', 'persistentvolumeclaims', true),
  persistentvolumes: core('PersistentVolume', 'persistentvolumes', false),
  configmaps: core('ConfigMap', 'configmaps', true),
  secrets: core('Secret', 'secrets', true),
  events: core('Event', 'events', true),
  services: core('Service', 'services', true),
  serviceaccounts: core('ServiceAccount', 'serviceaccounts', true),
  eventsv1: v1('events.k8s.io', 'Event', 'events', true),
  controllerrevisions: v1('apps', 'ControllerRevision', 'controllerrevisions', true),
  deployments: v1('apps', 'Deployment', 'deployments', true),
  // the Jobs an AdvancedCronJob's jobTemplate creates (kube-controller-manager runs them)
  jobs: v1('batch', 'Job', 'jobs', true),
  replicasets: v1('apps', 'ReplicaSet', 'replicasets', true),
  appsstatefulsets: v1('apps', 'StatefulSet', 'statefulsets', true),
  appsdaemonsets: v1('apps', 'DaemonSet', 'daemonsets', true),
  leases: v1('coordination.k8s.io', 'Lease', 'leases', true),
  storageclasses: v1('storage.k8s.io', 'StorageClass', 'storageclasses', false),
  customresourcedefinitions: v1('apiextensions.k8s.io', 'CustomResourceDefinition', 'customresourcedefinitions', false),
  mutatingwebhookconfigurations: v1(
    'admissionregistration.k8s.io',
    'MutatingWebhookConfiguration',
    'mutatingwebhookconfigurations',
    false,
  ),
  validatingwebhookconfigurations: v1(
    'admissionregistration.k8s.io',
    'ValidatingWebhookConfiguration',
    'validatingwebhookconfigurations',
    false,
  ),
  clonesets: kruise('CloneSet', 'clonesets', 'v1alpha1', true),
  // v1beta1: the stored version OpenKruise's controller works on (v1alpha1 is converted)
  statefulsets: kruise('StatefulSet', 'statefulsets', 'v1beta1', true),
  daemonsets: kruise('DaemonSet', 'daemonsets', 'v1beta1', true),
  // cluster-scoped; v1alpha1 as libs/mirror's catalogue and allow-list mirror it
  sidecarsets: kruise('SidecarSet', 'sidecarsets', 'v1alpha1', false),
  // v1beta1: the stored version OpenKruise's controller works on
  uniteddeployments: kruise('UnitedDeployment', 'uniteddeployments', 'v1beta1', true),
  // cluster-scoped; v1beta1, the stored version (the mirror scrubs an embedded Secret's data, libs/bus envelope.ts)
  resourcedistributions: kruise('ResourceDistribution', 'resourcedistributions', 'v1beta1', false),
  // image pre-warming: v1beta1, the stored version OpenKruise's controllers work on
  imagepulljobs: kruise('ImagePullJob', 'imagepulljobs', 'v1beta1', true),
  // cluster-scoped, one per Node (key `_.<node>`); a node agent reads only its own key (docs/adr/0032)
  nodeimages: kruise('NodeImage', 'nodeimages', 'v1beta1', false),
  // v1beta1: the stored version (v1alpha1 has the same fields)
  broadcastjobs: kruise('BroadcastJob', 'broadcastjobs', 'v1beta1', true),
  // v1beta1, the stored version OpenKruise's controller works on (v1alpha1 served with the same fields)
  advancedcronjobs: kruise('AdvancedCronJob', 'advancedcronjobs', 'v1beta1', true),
  // v1alpha1 only; a node agent reads its node's requests from one bus key (docs/adr/0075)
  containerrecreaterequests: kruise('ContainerRecreateRequest', 'containerrecreaterequests', 'v1alpha1', true),
  // policy.kruise.io: v1alpha1 only
  podunavailablebudgets: {
    group: 'policy.kruise.io',
    version: 'v1alpha1',
    kind: 'PodUnavailableBudget',
    plural: 'podunavailablebudgets',
    namespaced: true,
  },
  // v1alpha1 only (docs/workloadspread.md)
  workloadspreads: kruise('WorkloadSpread', 'workloadspreads', 'v1alpha1', true),
} as const satisfies Record<string, KindRef>;
