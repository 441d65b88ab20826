/**
 * The pod fields each program's controllers read, declared with the kinds it registers (docs/adr/0060-pod-projection.md).
 * Found by reading the libraries the program runs; a field one is unsure about is kept. Every field of metadata is kept
 * (managedFields are dropped by the watcher already); of spec and status only what is listed. Values the pods of one
 * template have in common (env, resources, readiness gates, owner references) are held once (`'deduped'`).
 */
import type { Pod } from '@regatta/api';
import type { ObjectMeta } from '@regatta/kube';
import { unionFieldSets } from './projection.js';
import type { FieldSetOf, Projected } from './projection-types.js';

/** Every program keeps every metadata field; the strings and lists pods have in common are held once. */
const POD_METADATA_FIELDS = {
  '*': true,
  namespace: 'shared',
  generateName: 'shared',
  labels: 'shared',
  annotations: 'shared',
  ownerReferences: 'deduped',
  finalizers: 'shared',
} as const satisfies FieldSetOf<ObjectMeta>;

/**
 * The CloneSet program (apps/cloneset): libs/cloneset (scale, update, status, pvc clean-up, webhook's pod lookups),
 * libs/rollout (active-pod order: phase, node, readiness, restarts; availability: the Ready condition), libs/lifecycle
 * (readiness gates, conditions, phase, node), libs/inplace-update (containers' name, image, resources, resizePolicy and env,
 * the statuses' image, imageID, containerID, ready, restarts, resources). Kept whole besides: conditions (written back by type),
 * status reason and message, container state.
 */
export const CLONESET_POD_FIELDS = {
  apiVersion: true,
  kind: true,
  metadata: POD_METADATA_FIELDS,
  spec: {
    nodeName: 'shared',
    readinessGates: 'deduped',
    containers: {
      name: 'shared',
      image: 'shared',
      resources: 'deduped',
      resizePolicy: 'deduped',
      env: 'deduped',
    },
  },
  status: {
    phase: 'shared',
    reason: 'shared',
    message: true,
    conditions: { '*': true, type: 'shared', status: 'shared', reason: 'shared' },
    containerStatuses: {
      name: 'shared',
      ready: true,
      started: true,
      restartCount: true,
      image: 'shared',
      imageID: 'shared',
      containerID: true,
      state: true,
      // what the kubelet actuated: an in-place resize is done when it matches the spec (docs/adr/0087)
      resources: 'deduped',
    },
  },
} as const satisfies FieldSetOf<Pod>;

/**
 * The Advanced StatefulSet program (apps/asts): what the CloneSet program reads (the same libraries: lifecycle,
 * in-place update, rollout order), plus the pod's identity and storage (libs/asts planning/identity.ts: `hostname`,
 * `subdomain`, and of each volume its `name` and `persistentVolumeClaim.claimName`, all `storageMatches` compares
 * with the claims the set wants). A pod's volumes are never written from this copy: the storage fix reads the pod
 * whole from the API server first (libs/asts sync/pod-control.ts `updatePodIdentity`).
 */
export const ASTS_POD_FIELDS = unionFieldSets(CLONESET_POD_FIELDS, {
  spec: {
    hostname: 'shared',
    subdomain: 'shared',
    volumes: { name: 'shared', persistentVolumeClaim: { claimName: 'shared' } },
  },
} as const satisfies FieldSetOf<Pod>);

/**
 * The Advanced DaemonSet program (apps/ads): what the CloneSet program reads, plus the required node affinity a pod
 * not yet scheduled is placed by (libs/ads planning/node-pods.ts `nodeOfPod`). Node eligibility reads the template,
 * not the pods.
 */
export const ADS_POD_FIELDS = unionFieldSets(CLONESET_POD_FIELDS, {
  spec: { affinity: 'shared' },
} as const satisfies FieldSetOf<Pod>);

/**
 * The SidecarSet program (apps/sidecarset): libs/sidecarset's upgrade (matching: labels, namespace, the injected-list
 * and hash annotations, phase, deletion; consistency and readiness: each container's name and image against its
 * status's name, image, imageID and ready, the same of the init containers for native sidecars (`restartPolicy`),
 * the Ready condition; the update order of libs/rollout: node, phase, the
 * Ready condition's time, restarts, creation time, labels; the `SidecarSetUpgradable` condition, written back by
 * type) and its launch-priority barrier reconciler (each container's env: the barrier's ConfigMap key). The pod
 * webhook reads the pod of the admission request, never the cache.
 */
export const SIDECARSET_POD_FIELDS = {
  apiVersion: true,
  kind: true,
  metadata: POD_METADATA_FIELDS,
  spec: {
    nodeName: 'shared',
    // resources: sidecars resized in place (docs/adr/0087-in-place-resource-resize.md)
    containers: { name: 'shared', image: 'shared', env: 'deduped', resources: 'deduped' },
    // native sidecars (docs/sidecarset.md "Native sidecars"): upgraded in place like the containers
    initContainers: { name: 'shared', image: 'shared', restartPolicy: 'shared' },
  },
  status: {
    phase: 'shared',
    conditions: { '*': true, type: 'shared', status: 'shared', reason: 'shared' },
    containerStatuses: {
      name: 'shared',
      ready: true,
      restartCount: true,
      image: 'shared',
      imageID: 'shared',
      // what the kubelet actuated of a sidecar resize (docs/adr/0087)
      resources: 'deduped',
    },
    initContainerStatuses: { name: 'shared', ready: true, image: 'shared', imageID: 'shared' },
  },
} as const satisfies FieldSetOf<Pod>;

/**
 * The UnitedDeployment program (apps/uniteddeployment), which only reads its subsets' pods (libs/uniteddeployment):
 * labels (subset name and revision, the reserved-pod label, the subsets' selectors), namespace and name (the
 * reserved label's patch, the StatefulSet's stuck-pod delete), deletion and creation times (active pods, the pending
 * timeout), `spec.nodeName` and of status `phase` and the conditions (Ready and its transition time; `PodScheduled`
 * False with reason `Unschedulable`). No container or container status: the subsets' own controllers read those.
 */
export const UD_POD_FIELDS = {
  apiVersion: true,
  kind: true,
  metadata: POD_METADATA_FIELDS,
  spec: { nodeName: 'shared' },
  status: {
    phase: 'shared',
    conditions: { '*': true, type: 'shared', status: 'shared', reason: 'shared' },
  },
} as const satisfies FieldSetOf<Pod>;

/**
 * The ImagePull program (apps/imagepull), which caches every scheduled pod for the ImagePullJobs with a `podSelector`
 * (libs/imagepull targets.ts, handlers.ts, job-reconciler.ts): namespace and labels (the job's namespace and
 * selector), the deletion time and `status.phase` (active pods) and `spec.nodeName` (the NodeImage a pod puts the job
 * on; also the program's `keep`). It never writes a pod.
 */
export const IMAGEPULL_POD_FIELDS = {
  apiVersion: true,
  kind: true,
  metadata: POD_METADATA_FIELDS,
  spec: { nodeName: 'shared' },
  status: { phase: 'shared' },
} as const satisfies FieldSetOf<Pod>;

/**
 * The PodUnavailableBudget program (apps/podunavailablebudget), which caches every pod a budget may select
 * (libs/podunavailablebudget): metadata (the selectors' labels, owner references to the counted workload, the guard
 * marks, the related-budget, no-protect and in-place/sidecar upgrade state annotations, deletion time); of status
 * `phase` and the conditions (Ready, InPlaceUpdateReady and resize conditions: `isPodAvailable` in budget.ts); what
 * libs/inplace-update's completion check and the sidecar upgrade check read of the containers (name, image, env,
 * resources) and their statuses (name, image, imageID, containerID, resources). The webhook decides on the pod of the
 * admission request, or for an eviction on this copy; the program writes pods only as label/annotation patches.
 */
export const PUB_POD_FIELDS = {
  apiVersion: true,
  kind: true,
  metadata: POD_METADATA_FIELDS,
  spec: {
    containers: { name: 'shared', image: 'shared', env: 'deduped', resources: 'deduped' },
  },
  status: {
    phase: 'shared',
    conditions: { '*': true, type: 'shared', status: 'shared', reason: 'shared' },
    containerStatuses: {
      name: 'shared',
      image: 'shared',
      imageID: 'shared',
      containerID: true,
      resources: 'deduped',
    },
  },
} as const satisfies FieldSetOf<Pod>;

/** A pod as the CloneSet program's caches hold it. */
export type CloneSetPod = Projected<Pod, typeof CLONESET_POD_FIELDS>;
/** A pod as the Advanced StatefulSet program's caches hold it. */
export type AstsPod = Projected<Pod, typeof ASTS_POD_FIELDS>;
/** A pod as the Advanced DaemonSet program's caches hold it. */
export type AdsPod = Projected<Pod, typeof ADS_POD_FIELDS>;
/** A pod as the SidecarSet program's caches hold it. */
export type SidecarSetPod = Projected<Pod, typeof SIDECARSET_POD_FIELDS>;
/** A pod as the UnitedDeployment program's caches hold it. */
export type UnitedDeploymentPod = Projected<Pod, typeof UD_POD_FIELDS>;
/** A pod as the ImagePull program's caches hold it. */
export type ImagePullPod = Projected<Pod, typeof IMAGEPULL_POD_FIELDS>;
/** A pod as the PodUnavailableBudget program's caches hold it. */
export type PubPod = Projected<Pod, typeof PUB_POD_FIELDS>;
