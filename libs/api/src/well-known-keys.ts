/**
 * Labels, annotations, conditions and finalizers of OpenKruise v1.9 that the workload controllers and users share
 * (spec §9.1 / §9.3). The values are the exact keys OpenKruise uses.
 */

/** Pod / PVC / ControllerRevision labels. */
export const Labels = {
  /** Revision of a pod: `<workload>-<hash>` (CloneSet, ASTS) or the hash (DaemonSet). */
  ControllerRevisionHash: 'controller-revision-hash',
  /** Short revision hash on CloneSet pods. */
  PodTemplateHash: 'pod-template-hash',
  /** Revision hash on ControllerRevisions. */
  ControllerRevisionHashOnRevision: 'controller.kubernetes.io/hash',
  /** DaemonSet pods: the legacy template generation. */
  PodTemplateGeneration: 'pod-template-generation',
  StatefulSetPodName: 'statefulset.kubernetes.io/pod-name',
  PodIndex: 'apps.kubernetes.io/pod-index',
  /** 5-character id shared by a CloneSet pod and its PVCs. */
  CloneSetInstanceId: 'apps.kruise.io/cloneset-instance-id',
  /** Any value: delete this pod first (CloneSet, ASTS). */
  SpecifiedDelete: 'apps.kruise.io/specified-delete',
  /** On a CloneSet: `"true"` = PreparingDelete pods do not count as replicas when scaling. */
  CloneSetScalingExcludePreparingDelete: 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete',
  /** Lifecycle state of a pod (see {@link LifecycleStates}). */
  LifecycleState: 'lifecycle.apps.kruise.io/state',
  PrePredownloadCreated: 'apps.kruise.io/pre-predownload-created',
  ImagePredownloadIgnored: 'apps.kruise.io/image-predownload-ignored',
  DeleteProtection: 'policy.kruise.io/delete-protection',
} as const;

/** Pod / workload / revision annotations. */
export const Annotations = {
  LifecycleTimestamp: 'lifecycle.apps.kruise.io/timestamp',
  InPlaceUpdateState: 'apps.kruise.io/inplace-update-state',
  InPlaceUpdateGrace: 'apps.kruise.io/inplace-update-grace',
  RuntimeContainersMeta: 'apps.kruise.io/runtime-containers-meta',
  /** On a pod: `Ordered` = containers start (and update in place) in spec order. */
  ContainerLaunchPriority: 'apps.kruise.io/container-launch-priority',
  PodDeletionCost: 'controller.kubernetes.io/pod-deletion-cost',
  CloneSetVolumeClaimTemplateHash: 'kruise.io/cloneset-volumeclaimtemplate-hash',
  ImagePredownloadParallelism: 'apps.kruise.io/image-predownload-parallelism',
  ImagePredownloadTimeoutSeconds: 'apps.kruise.io/image-predownload-timeout-seconds',
  ImagePredownloadMinUpdatedReadyPods: 'apps.kruise.io/image-predownload-min-updated-ready-pods',
  DaemonSetProgressiveCreatePod: 'daemonset.kruise.io/progressive-create-pod',
} as const;

/** Values of the `lifecycle.apps.kruise.io/state` label. */
export const LifecycleStates = {
  PreparingNormal: 'PreparingNormal',
  Normal: 'Normal',
  PreparingUpdate: 'PreparingUpdate',
  Updating: 'Updating',
  Updated: 'Updated',
  PreparingDelete: 'PreparingDelete',
} as const;
export type LifecycleState = (typeof LifecycleStates)[keyof typeof LifecycleStates];

/** Pod condition types (and readiness gates) Kruise owns. */
export const PodConditionTypes = {
  InPlaceUpdateReady: 'InPlaceUpdateReady',
  KruisePodReady: 'KruisePodReady',
} as const;

export const Finalizers = {
  /** ImagePullJob: released after its synced secrets are cleaned up. */
  DeletionProtection: 'apps.kruise.io/deletion-protection',
} as const;
