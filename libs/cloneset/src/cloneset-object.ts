/** The CloneSet as the reconciler reads it, its key, the rollout spec with defaults, and its feature gates. */
import type { KubeObject, LabelSelector } from '@regatta/kube';
import { type CloneSetRolloutSpec, SCALING_EXCLUDE_PREPARING_DELETE_LABEL } from '@regatta/rollout';
import { requestKey } from '@regatta/runtime';

export const CLONESET_GVK = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;

/** The CloneSet as the reconciler reads it (v1alpha1). */
export interface CloneSetObject extends KubeObject {
  spec?: CloneSetRolloutSpec & {
    selector?: LabelSelector | null;
    revisionHistoryLimit?: number | null;
    [k: string]: unknown;
  };
  status?: Record<string, unknown> & { currentRevision?: string; collisionCount?: number | null };
}

/**
 * The feature gates the CloneSet controller reads, with OpenKruise's defaults
 * (`pkg/features/kruise_features.go`).
 */
export const CLONESET_FEATURE_GATES = {
  /** Scale counts a pod in PreparingUpdate as updated (Alpha). */
  PreparingUpdateAsUpdate: false,
  /** A volumeClaimTemplates change makes pods be recreated instead of updated in place (Alpha). */
  RecreatePodWhenChangeVCTInCloneSetGate: false,
  /**
   * A change of only cpu/memory requests/limits that keeps the QoS class resizes pods through `pods/resize` where
   * the API server serves it (upstream Alpha, off; Regatta on: Kubernetes 1.35+ has resize GA, docs/adr/0087).
   */
  InPlaceWorkloadVerticalScaling: true,
  /** In-place update of env read from labels/annotations, restarting only those containers (Beta). */
  InPlaceUpdateEnvFromMetadata: true,
  /** kruise-daemon features (Beta); off turns PreDownloadImageForInPlaceUpdate off. */
  KruiseDaemon: true,
  /** Pull an in-place rollout's new images onto the nodes with ImagePullJobs first (Alpha). */
  PreDownloadImageForInPlaceUpdate: false,
  /** A raised partition rolls pods already at the update revision back to the current one (Alpha). */
  CloneSetPartitionRollback: false,
} as const;
export type CloneSetFeatureGates = Record<keyof typeof CLONESET_FEATURE_GATES, boolean>;

export function cloneSetKey(namespace: string | undefined, name: string): string {
  return requestKey({ ...(namespace ? { namespace } : {}), name });
}

/** The v1alpha1 spec as the rollout math reads it (defaults the webhook would have set, when missing). */
export function rolloutSpec(cs: CloneSetObject): CloneSetRolloutSpec {
  const spec = cs.spec ?? {};
  const excluded = cs.metadata?.labels?.[SCALING_EXCLUDE_PREPARING_DELETE_LABEL] === 'true';
  return {
    ...spec,
    replicas: spec.replicas ?? 1,
    updateStrategy: spec.updateStrategy ?? {},
    scaleStrategy: { ...(spec.scaleStrategy ?? {}), ...(excluded ? { excludePreparingDelete: true } : {}) },
  };
}

export function nameOf(o: KubeObject): string {
  return o.metadata?.name ?? '';
}
