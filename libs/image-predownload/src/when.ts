/**
 * When a workload pre-downloads, as pure decisions (OpenKruise `pkg/controller/cloneset/cloneset_controller.go`
 * `doReconcile`, `pkg/controller/statefulset/stateful_set_control.go` `doPreDownload` and the
 * `createImagePullJobsForInPlaceUpdate` of CloneSet, StatefulSet and DaemonSet).
 */
import { minUpdatedReadyPods } from './settings.js';

/** Workloads with this many replicas or fewer never pre-download (`minimumReplicasToPreDownloadImage`). */
export const MINIMUM_REPLICAS_TO_PREDOWNLOAD = 3;

export type PreDownloadStep =
  /** A rollout with enough updated pods ready: create the pull jobs of the update revision. */
  | { action: 'prepare' }
  /** No rollout: delete the pull jobs this workload controls. */
  | { action: 'cleanup' }
  /** A rollout waiting for more updated-ready pods first. */
  | { action: 'wait'; minUpdatedReadyPods: number; updatedReadyReplicas: number };

export interface RolloutFacts {
  /** The workload's annotations (`image-predownload-min-updated-ready-pods`). */
  annotations: Readonly<Record<string, string>> | undefined;
  replicas: number;
  currentRevision: string;
  updateRevision: string;
  /** The stored status (before this round): its counters only describe `updateRevision` if its names match. */
  status: { updateRevision?: string; updatedReadyReplicas?: number } | undefined;
}

/**
 * CloneSet and Advanced StatefulSet: pre-download only during a rollout, once `min-updated-ready-pods` updated pods
 * are ready (the stored count is 0 when the status describes another update revision).
 */
export function rolloutPreDownloadStep(f: RolloutFacts): PreDownloadStep {
  if (f.currentRevision === f.updateRevision) return { action: 'cleanup' };
  const min = minUpdatedReadyPods(f.annotations, f.replicas);
  const updatedReady =
    f.status?.updateRevision === f.updateRevision ? (f.status.updatedReadyReplicas ?? 0) : 0;
  if (min <= updatedReady) return { action: 'prepare' };
  return { action: 'wait', minUpdatedReadyPods: min, updatedReadyReplicas: updatedReady };
}

/** Why a revision's images are not pre-downloaded (the revision is then labelled `image-predownload-ignored`). */
export type IgnoreReason =
  /** Pods are recreated, not updated in place (ReCreate, OnDelete for StatefulSets, no rollingUpdate). */
  | 'NotInPlaceStrategy'
  /** `replicas` ≤ {@link MINIMUM_REPLICAS_TO_PREDOWNLOAD} (CloneSet, StatefulSet). */
  | 'FewReplicas'
  /** `partition` 0 and `maxUnavailable` ≥ the pod count: every pod updates in one batch, nothing to pull ahead of. */
  | 'OneBatch'
  /** The revision change cannot be made in place. */
  | 'NotInPlace';

export interface IgnoreFacts {
  /** The strategy updates pods in place (InPlaceIfPossible / InPlaceOnly). Absent: not checked (DaemonSet). */
  inPlaceStrategy?: boolean;
  /** `spec.replicas`; absent: not checked (DaemonSet). */
  replicas?: number;
  /** The partition in pods. */
  partition: number;
  /** maxUnavailable in pods, rounded as the kind rounds it. */
  maxUnavailable: number;
  /** The pod count partition and maxUnavailable apply to (replicas; desiredNumberScheduled for DaemonSets). */
  pods: number;
  /** The revisions can be updated in place; absent: not checked (DaemonSet). */
  inPlace?: boolean;
}

/** The first reason, in upstream's order, not to pre-download; undefined = create the jobs. */
export function ignoreReason(f: IgnoreFacts): IgnoreReason | undefined {
  if (f.inPlaceStrategy === false) return 'NotInPlaceStrategy';
  if (f.replicas !== undefined && f.replicas <= MINIMUM_REPLICAS_TO_PREDOWNLOAD) return 'FewReplicas';
  if (f.partition === 0 && f.maxUnavailable >= f.pods) return 'OneBatch';
  if (f.inPlace === false) return 'NotInPlace';
  return undefined;
}
