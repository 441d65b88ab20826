/**
 * The parts of a SidecarSet (v1beta1 shape) the upgrade controller reads. Structural on purpose: the API types of
 * `@regatta/api` fit it, and unit tests can build SidecarSets without defaults.
 */
import type { IntOrString, KubeObject, LabelSelector } from '@regatta/kube';
import type { Container } from '@regatta/lifecycle';
import type { UpdatePriorityStrategy, UpdateScatterTerm } from '@regatta/rollout';

export interface SidecarContainerView extends Container {
  podInjectPolicy?: string;
  upgradeStrategy?: { upgradeType?: 'ColdUpgrade' | 'HotUpgrade' | string; hotUpgradeEmptyImage?: string };
}

export interface SidecarSetUpdateStrategyView {
  type?: 'RollingUpdate' | 'NotUpdate' | string;
  paused?: boolean;
  selector?: LabelSelector | null;
  partition?: IntOrString | null;
  maxUnavailable?: IntOrString | null;
  priorityStrategy?: UpdatePriorityStrategy | null;
  scatterStrategy?: UpdateScatterTerm[] | null;
}

export interface PatchPodMetadataView {
  annotations?: Record<string, string>;
  patchPolicy?: 'Retain' | 'Overwrite' | 'MergePatchJson' | string;
}

export interface SidecarSetView extends KubeObject {
  spec?: {
    selector?: LabelSelector | null;
    namespace?: string;
    namespaceSelector?: LabelSelector | null;
    containers?: SidecarContainerView[];
    initContainers?: SidecarContainerView[];
    volumes?: unknown[];
    imagePullSecrets?: { name: string }[];
    patchPodMetadata?: PatchPodMetadataView[];
    updateStrategy?: SidecarSetUpdateStrategyView;
    injectionStrategy?: {
      paused?: boolean;
      revision?: { customVersion?: string; revisionName?: string; policy?: string } | null;
    };
    revisionHistoryLimit?: number | null;
    customVersion?: string;
  };
  status?: SidecarSetStatusView;
}

/** `status` exactly as OpenKruise writes it (`calculateStatus`). */
export interface SidecarSetStatusView {
  observedGeneration?: number;
  matchedPods?: number;
  updatedPods?: number;
  readyPods?: number;
  updatedReadyPods?: number;
  latestRevision?: string;
  collisionCount?: number;
}
