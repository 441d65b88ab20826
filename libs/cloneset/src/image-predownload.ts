/**
 * The image pre-download seam (`pkg/controller/cloneset/cloneset_predownload_image.go`). Before pods are updated in place, OpenKruise can pull the new
 * images onto the nodes of the pods still to be updated with ImagePullJobs. ImagePullJob arrives with its own
 * controller; until then the CloneSet reconciler decides *when* (this pure step) and calls an
 * {@link ImagePreDownloader} if one is wired in, which decides *what* (the jobs) and writes them.
 */
import { Annotations } from '@regatta/api';
import { type IntOrString, parseIntOrString, scaleKruise } from '@regatta/kube';
import type { ControllerRevision } from '@regatta/revision';
import type { CloneSetObject } from './cloneset-object.js';

export const IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_KEY = Annotations.ImagePredownloadMinUpdatedReadyPods;

export type PreDownloadStep =
  /** The rollout is on and enough updated pods are ready: create the pull jobs for the update revision. */
  | { action: 'prepare' }
  /** No rollout: remove the pull jobs this CloneSet created. */
  | { action: 'cleanup' }
  /** A rollout waiting for more updated-ready pods first. */
  | { action: 'wait'; minUpdatedReadyPods: number; updatedReadyReplicas: number };

export interface PreDownloadFacts {
  /** The CloneSet's annotations (v1alpha1 carries the setting there). */
  annotations: Readonly<Record<string, string>> | undefined;
  replicas: number;
  currentRevision: string;
  updateRevision: string;
  /** The stored status (before this round): its counters only describe `updateRevision` if its names match. */
  status: { updateRevision?: string; updatedReadyReplicas?: number } | undefined;
}

/**
 * When to pre-download: only during a rollout, and only once `min-updated-ready-pods` (an int or a percentage of
 * replicas, rounded up; default 0) updated pods are ready. An unparsable setting counts as 0.
 */
export function preDownloadStep(f: PreDownloadFacts): PreDownloadStep {
  if (f.currentRevision === f.updateRevision) return { action: 'cleanup' };
  const raw = f.annotations?.[IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_KEY];
  let min = 0;
  if (raw !== undefined) {
    try {
      min = scaleKruise(parseIntOrString(raw) as IntOrString, f.replicas, true);
    } catch {
      min = 0;
    }
  }
  const updatedReady =
    f.status?.updateRevision === f.updateRevision ? (f.status.updatedReadyReplicas ?? 0) : 0;
  if (min <= updatedReady) return { action: 'prepare' };
  return { action: 'wait', minUpdatedReadyPods: min, updatedReadyReplicas: updatedReady };
}

/** Pulls a rollout's new images ahead of the in-place updates (implemented with ImagePullJob). */
export interface ImagePreDownloader {
  /** Create what pulls `updateRevision`'s new images (idempotent: called on every round of the rollout). */
  prepare(input: {
    cloneSet: CloneSetObject;
    currentRevision: ControllerRevision;
    updateRevision: ControllerRevision;
  }): Promise<void>;
  /** Remove what `prepare` created for this CloneSet (called on every round without a rollout). */
  cleanup(cloneSet: CloneSetObject): Promise<void>;
}
