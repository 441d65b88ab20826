/**
 * The Advanced DaemonSet as the reconciler reads it (v1alpha1 or v1beta1, docs/ads.md "API"), its key, the rollout
 * spec with the defaults the webhook would have set, and the feature gates it reads.
 */
import type { IntOrString, KubeObject, LabelSelector } from '@regatta/kube';
import type { Lifecycle } from '@regatta/lifecycle';
import type { PodTemplate } from '@regatta/revision';
import { requestKey } from '@regatta/runtime';

/** The version the controller reads and writes (v1beta1, stored; v1alpha1 objects are served converted). */
export const DAEMONSET_GVK = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' } as const;

/** v1alpha1 annotation: partition also limits pod creation (v1beta1 `scaleStrategy.partitionedScaling`). */
export const PROGRESSIVE_CREATE_POD_ANNOTATION = 'daemonset.kruise.io/progressive-create-pod';
/** DaemonSet annotation whose value pods get as `pod-template-generation` (legacy matching). */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
export const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';

export type RollingUpdateType = 'Standard' | 'InPlaceIfPossible' | 'Surging';

export interface DaemonSetRollingUpdate {
  rollingUpdateType?: RollingUpdateType | null;
  maxUnavailable?: IntOrString | null;
  maxSurge?: IntOrString | null;
  selector?: LabelSelector | null;
  partition?: IntOrString | null;
  paused?: boolean | null;
}

export interface DaemonSetSpec {
  selector?: LabelSelector | null;
  template?: PodTemplate;
  updateStrategy?: {
    type?: 'RollingUpdate' | 'OnDelete' | null;
    rollingUpdate?: DaemonSetRollingUpdate | null;
  } | null;
  minReadySeconds?: number | null;
  burstReplicas?: IntOrString | null;
  revisionHistoryLimit?: number | null;
  lifecycle?: Lifecycle | null;
  scaleStrategy?: { partitionedScaling?: boolean | null } | null;
  [k: string]: unknown;
}

export interface DaemonSetStatus {
  currentNumberScheduled?: number;
  numberMisscheduled?: number;
  desiredNumberScheduled?: number;
  numberReady?: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number | null;
  conditions?: unknown[];
  /** v1beta1 name of the hash. */
  updateRevision?: string;
  /** v1alpha1 name of the hash. */
  daemonSetHash?: string;
  [k: string]: unknown;
}

/** The DaemonSet as the reconciler reads it. */
export interface DaemonSetObject extends KubeObject {
  spec?: DaemonSetSpec;
  status?: DaemonSetStatus;
}

/** The rollout settings the planners read, defaults applied (v1alpha1 `Surging` converted as v1beta1 does). */
export interface DaemonSetRollout {
  type: 'RollingUpdate' | 'OnDelete';
  rollingUpdateType: 'Standard' | 'InPlaceIfPossible';
  maxUnavailable: IntOrString;
  maxSurge: IntOrString;
  selector: LabelSelector | null;
  partition: IntOrString | null;
  paused: boolean;
  minReadySeconds: number;
  burstReplicas: IntOrString;
  partitionedScaling: boolean;
  lifecycle: Lifecycle | null;
}

export const DEFAULT_BURST_REPLICAS = 250;

/**
 * The feature gates the DaemonSet controller reads, with OpenKruise's defaults (`pkg/features/kruise_features.go`).
 */
export const DAEMONSET_FEATURE_GATES = {
  /** Pods on nodes that no longer should run the daemon do not count against maxUnavailable (HEAD, Alpha). */
  DaemonSetPruneIneligibleNodes: false,
  /**
   * A change of only cpu/memory requests/limits that keeps the QoS class resizes pods through `pods/resize` where
   * the API server serves it (upstream Alpha, off; Regatta on: Kubernetes 1.35+ has resize GA, docs/adr/0087).
   */
  InPlaceWorkloadVerticalScaling: true,
  /** In-place update of env read from labels/annotations (Beta). */
  InPlaceUpdateEnvFromMetadata: true,
  /** kruise-daemon features (Beta); off turns PreDownloadImageForDaemonSetUpdate off. */
  KruiseDaemon: true,
  /** Pull a rollout's images onto the nodes with ImagePullJobs first (Alpha). */
  PreDownloadImageForDaemonSetUpdate: false,
} as const;
export type DaemonSetFeatureGates = Record<keyof typeof DAEMONSET_FEATURE_GATES, boolean>;

export function daemonSetKey(namespace: string | undefined, name: string): string {
  return requestKey({ ...(namespace ? { namespace } : {}), name });
}

export function nameOf(o: KubeObject): string {
  return o.metadata?.name ?? '';
}

/** The rollout settings of `ds` (OpenKruise `apis/apps/defaults` for DaemonSet, and the v1alpha1→v1beta1 conversion). */
export function daemonSetRollout(ds: DaemonSetObject): DaemonSetRollout {
  const spec = ds.spec ?? {};
  const type = spec.updateStrategy?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  const ru = spec.updateStrategy?.rollingUpdate ?? {};
  const surging = ru.rollingUpdateType === 'Surging';
  let maxUnavailable = ru.maxUnavailable ?? null;
  let maxSurge = ru.maxSurge ?? null;
  if (surging) {
    maxSurge ??= 1;
    maxUnavailable ??= 0;
  } else if (maxUnavailable === null && maxSurge === null) {
    maxUnavailable = 1;
    maxSurge = 0;
  }
  return {
    type,
    rollingUpdateType: ru.rollingUpdateType === 'InPlaceIfPossible' ? 'InPlaceIfPossible' : 'Standard',
    maxUnavailable: maxUnavailable ?? 0,
    maxSurge: maxSurge ?? 0,
    selector: ru.selector ?? null,
    partition: ru.partition ?? null,
    paused: ru.paused === true,
    minReadySeconds: spec.minReadySeconds ?? 0,
    burstReplicas: spec.burstReplicas ?? DEFAULT_BURST_REPLICAS,
    partitionedScaling:
      spec.scaleStrategy?.partitionedScaling === true ||
      ds.metadata?.annotations?.[PROGRESSIVE_CREATE_POD_ANNOTATION] === 'true',
    lifecycle: spec.lifecycle ?? null,
  };
}

/** `status.updateRevision` (v1beta1) or `status.daemonSetHash` (v1alpha1). */
export function statusHash(ds: DaemonSetObject): string | undefined {
  return ds.status?.updateRevision ?? ds.status?.daemonSetHash;
}
