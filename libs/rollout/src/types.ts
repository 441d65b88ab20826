/**
 * The CloneSet spec fields rollout decisions read. A v1alpha1 CloneSet `spec` fits as is; for v1beta1 pass
 * `updateStrategy.rollingUpdate` merged into `updateStrategy` (and leave `updateStrategy` undefined when
 * `rollingUpdate` is nil, which selects upstream's no-rollingUpdate defaults).
 */
import { Labels } from '@regatta/api';
import type { IntOrString, LabelSelector } from '@regatta/kube';
import type { Lifecycle } from '@regatta/lifecycle';
import type { PodTemplate, VolumeClaimTemplate } from '@regatta/revision';

/** `updateStrategy.priorityStrategy`: weight terms or ordered keys (only one of the two lists). */
export interface UpdatePriorityStrategy {
  weightPriority?: { weight: number; matchSelector: LabelSelector }[] | null;
  orderPriority?: { orderedKey: string }[] | null;
}

/** One `updateStrategy.scatterStrategy` term. */
export interface UpdateScatterTerm {
  key: string;
  value: string;
}

/** CloneSet `updateStrategy` (v1alpha1 shape; v1beta1's `rollingUpdate` fields are the same names). */
export interface CloneSetUpdateStrategy {
  /** v1alpha1 `ReCreate` | `InPlaceIfPossible` | `InPlaceOnly`; v1beta1 `RollingUpdate` | `OnDelete`. */
  type?: string;
  partition?: IntOrString | null;
  maxUnavailable?: IntOrString | null;
  maxSurge?: IntOrString | null;
  paused?: boolean;
  priorityStrategy?: UpdatePriorityStrategy | null;
  scatterStrategy?: UpdateScatterTerm[] | null;
  inPlaceUpdateStrategy?: { gracePeriodSeconds?: number } | null;
}

/** CloneSet `scaleStrategy`. */
export interface CloneSetScaleStrategy {
  podsToDelete?: string[] | null;
  maxUnavailable?: IntOrString | null;
  disablePVCReuse?: boolean;
  /** v1beta1 field; for v1alpha1 the `apps.kruise.io/cloneset-scaling-exclude-preparing-delete: "true"` label. */
  excludePreparingDelete?: boolean;
}

/** The CloneSet spec as rollout reads it. */
export interface CloneSetRolloutSpec {
  /** Default 1. */
  replicas?: number | null;
  selector?: LabelSelector | null;
  template?: PodTemplate;
  volumeClaimTemplates?: VolumeClaimTemplate[] | null;
  minReadySeconds?: number | null;
  /** `undefined`/null = v1beta1 without rollingUpdate: partition 0, maxSurge 0, maxUnavailable "20%" rounded down. */
  updateStrategy?: CloneSetUpdateStrategy | null;
  scaleStrategy?: CloneSetScaleStrategy | null;
  lifecycle?: Lifecycle | null;
}

/** Default `updateStrategy.maxUnavailable`. */
export const DEFAULT_MAX_UNAVAILABLE = '20%';

/** CloneSet label (v1alpha1) that excludes PreparingDelete pods from replica counting. */
export const SCALING_EXCLUDE_PREPARING_DELETE_LABEL = Labels.CloneSetScalingExcludePreparingDelete;
