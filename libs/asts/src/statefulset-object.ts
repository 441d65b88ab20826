/**
 * The Advanced StatefulSet as the reconciler reads it (`apps.kruise.io/v1beta1`), its key, the defaults the mutating
 * webhook would have set, and the feature gates the controller reads (OpenKruise `apis/apps/v1beta1/statefulset_types.go`,
 * `pkg/features/kruise_features.go`). The reconciler reads plain objects: the schema lives in `@regatta/api`.
 */
import type { Condition, IntOrString, KubeObject, LabelSelector } from '@regatta/kube';
import type { Lifecycle } from '@regatta/lifecycle';
import type { PodTemplate, VolumeClaimTemplate } from '@regatta/revision';
import type { UpdatePriorityStrategy } from '@regatta/rollout';
import { requestKey } from '@regatta/runtime';

export const STATEFULSET_GVK = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } as const;

export type PodManagementPolicy = 'OrderedReady' | 'Parallel';
export type PodUpdatePolicy = 'ReCreate' | 'InPlaceIfPossible' | 'InPlaceOnly';
export type RetentionPolicyType = 'Retain' | 'Delete';

export interface RollingUpdateStatefulSetStrategy {
  partition?: number | null;
  maxUnavailable?: IntOrString | null;
  podUpdatePolicy?: PodUpdatePolicy | null;
  paused?: boolean | null;
  unorderedUpdate?: { priorityStrategy?: UpdatePriorityStrategy | null } | null;
  inPlaceUpdateStrategy?: { gracePeriodSeconds?: number | null } | null;
  minReadySeconds?: number | null;
}

export interface StatefulSetSpec {
  replicas?: number | null;
  selector?: LabelSelector | null;
  template?: PodTemplate;
  volumeClaimTemplates?: VolumeClaimTemplate[] | null;
  volumeClaimUpdateStrategy?: { type?: 'OnPodRollingUpdate' | 'OnDelete' | null } | null;
  serviceName?: string | null;
  podManagementPolicy?: PodManagementPolicy | null;
  updateStrategy?: {
    type?: 'RollingUpdate' | 'OnDelete' | null;
    rollingUpdate?: RollingUpdateStatefulSetStrategy | null;
  } | null;
  revisionHistoryLimit?: number | null;
  reserveOrdinals?: IntOrString[] | null;
  lifecycle?: Lifecycle | null;
  scaleStrategy?: { maxUnavailable?: IntOrString | null } | null;
  persistentVolumeClaimRetentionPolicy?: {
    whenDeleted?: RetentionPolicyType | null;
    whenScaled?: RetentionPolicyType | null;
  } | null;
  ordinals?: { start?: number | null } | null;
}

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  updatedReadyReplicas?: number;
  updatedAvailableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number | null;
  labelSelector?: string;
  conditions?: Condition[];
  volumeClaims?: { volumeClaimName: string; compatibleReplicas: number; compatibleReadyReplicas: number }[];
  [k: string]: unknown;
}

export interface StatefulSetObject extends KubeObject {
  spec?: StatefulSetSpec;
  status?: StatefulSetStatus;
}

/** The feature gates the Advanced StatefulSet controller reads, with OpenKruise's defaults. */
export const ASTS_FEATURE_GATES = {
  /** `persistentVolumeClaimRetentionPolicy` is honoured (Beta). */
  StatefulSetAutoDeletePVC: true,
  /** `ordinals.start` is honoured (Alpha). */
  StatefulSetStartOrdinal: false,
  /** Pods carry `apps.kubernetes.io/pod-index` (Beta). */
  PodIndexLabel: true,
  /** A pod in PreparingUpdate counts as updated (Alpha). */
  PreparingUpdateAsUpdate: false,
  /**
   * A change of only cpu/memory requests/limits that keeps the QoS class resizes pods through `pods/resize` where
   * the API server serves it (upstream Alpha, off; Regatta on: Kubernetes 1.35+ has resize GA, docs/adr/0087).
   */
  InPlaceWorkloadVerticalScaling: true,
  /** In-place update of env read from labels/annotations (Beta). */
  InPlaceUpdateEnvFromMetadata: true,
  /** Claims follow their templates' size on rolling update with `volumeClaimUpdateStrategy: OnPodRollingUpdate` (Alpha). */
  StatefulSetAutoResizePVCGate: false,
  /** kruise-daemon features (Beta); off turns PreDownloadImageForInPlaceUpdate off. */
  KruiseDaemon: true,
  /** Pull an in-place rollout's new images onto the nodes with ImagePullJobs first (Alpha). */
  PreDownloadImageForInPlaceUpdate: false,
} as const;
export type AstsFeatureGates = Record<keyof typeof ASTS_FEATURE_GATES, boolean>;

export function statefulSetKey(namespace: string | undefined, name: string): string {
  return requestKey({ ...(namespace ? { namespace } : {}), name });
}

export function nameOf(o: KubeObject): string {
  return o.metadata?.name ?? '';
}

export interface EffectiveSpec extends StatefulSetSpec {
  replicas: number;
  podManagementPolicy: PodManagementPolicy;
  revisionHistoryLimit: number;
  updateType: 'RollingUpdate' | 'OnDelete';
}

/** The spec with the webhook's defaults where fields are missing (`SetDefaultsStatefulSet`). */
export function effectiveSpec(set: StatefulSetObject): EffectiveSpec {
  const spec = set.spec ?? {};
  const updateType = spec.updateStrategy?.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate';
  return {
    ...spec,
    replicas: spec.replicas ?? 1,
    podManagementPolicy: spec.podManagementPolicy ?? 'OrderedReady',
    revisionHistoryLimit: spec.revisionHistoryLimit ?? 10,
    updateType,
  };
}

/** `getMinReadySeconds`: rollingUpdate.minReadySeconds, 0 when unset. */
export function minReadySecondsOf(spec: StatefulSetSpec): number {
  return spec.updateStrategy?.rollingUpdate?.minReadySeconds ?? 0;
}

/** `allowsBurst`: Parallel pod management. */
export function allowsBurst(spec: StatefulSetSpec): boolean {
  return spec.podManagementPolicy === 'Parallel';
}
