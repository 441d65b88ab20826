/**
 * Labels, annotations, conditions, finalizers and container env names of OpenKruise v1.9 that the workload
 * controllers and users share — the single definition the other libraries import. The values are the exact keys
 * OpenKruise uses (`apis/apps/v1alpha1/well_know_labels.go`, `apis/apps/pub/lifecycle.go`,
 * `apis/apps/pub/inplace_update.go`, `apis/apps/pub/launch_priority.go`, apps/v1 `ControllerRevisionHashLabelKey`).
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
  /** Node label: the host name, the default topology key when spreading pods to delete. */
  Hostname: 'kubernetes.io/hostname',
} as const;

/** Pod / workload / revision annotations. */
export const Annotations = {
  LifecycleTimestamp: 'lifecycle.apps.kruise.io/timestamp',
  InPlaceUpdateState: 'apps.kruise.io/inplace-update-state',
  /** Old key of {@link Annotations.InPlaceUpdateState}, still read (and removed on the next update). */
  InPlaceUpdateStateOld: 'inplace-update-state',
  InPlaceUpdateGrace: 'apps.kruise.io/inplace-update-grace',
  /** Old key of {@link Annotations.InPlaceUpdateGrace}, still read and removed. */
  InPlaceUpdateGraceOld: 'inplace-update-grace',
  /** `Ordered`: containers start (and update in place) in spec order. */
  ContainerLaunchPriority: 'apps.kruise.io/container-launch-priority',
  /** Sidecar hashes written by the SidecarSet webhook (read for in-place sidecar updates). */
  SidecarSetHash: 'kruise.io/sidecarset-hash',
  RuntimeContainersMeta: 'apps.kruise.io/runtime-containers-meta',
  PodDeletionCost: 'controller.kubernetes.io/pod-deletion-cost',
  CloneSetVolumeClaimTemplateHash: 'kruise.io/cloneset-volumeclaimtemplate-hash',
  ImagePredownloadParallelism: 'apps.kruise.io/image-predownload-parallelism',
  ImagePredownloadTimeoutSeconds: 'apps.kruise.io/image-predownload-timeout-seconds',
  ImagePredownloadMinUpdatedReadyPods: 'apps.kruise.io/image-predownload-min-updated-ready-pods',
  DaemonSetProgressiveCreatePod: 'daemonset.kruise.io/progressive-create-pod',
  /** Regatta's own (on a CloneSet): the trace context of its current rollout (docs/cloneset.md). */
  RolloutTrace: 'regatta.dev/rollout-trace',
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

/** Container env names with a meaning to Kruise. */
export const ContainerEnvs = {
  /** Set by users: launch (and in-place update) priority, higher first. */
  ContainerPriority: 'KRUISE_CONTAINER_PRIORITY',
  /** Injected by the pod webhook: `valueFrom.configMapKeyRef.key = p_<priority>`. */
  ContainerBarrier: 'KRUISE_CONTAINER_BARRIER',
} as const;

export const Finalizers = {
  /** ImagePullJob: released after its synced secrets are cleaned up. */
  DeletionProtection: 'apps.kruise.io/deletion-protection',
} as const;
