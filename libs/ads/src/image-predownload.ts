/**
 * The image pre-download seam (OpenKruise `pkg/controller/daemonset/daemonset_predownload_image.go`): with the gates
 * `KruiseDaemon` and `PreDownloadImageForDaemonSetUpdate`, a rollout first pulls the new images onto the nodes with
 * ImagePullJobs. ImagePullJob arrives with its own controller; until then the reconciler decides *when* (this pure
 * step) and calls an {@link ImagePreDownloader} if one is wired in. As upstream, `min-updated-ready-pods` is not
 * enforced for DaemonSets.
 */
import type { ControllerRevision } from '@regatta/revision';
import { type DaemonSetObject, type DaemonSetRollout, statusHash } from './daemonset-object.js';
import { partitionNodes, unavailableNumbers } from './planning/index.js';

export type PreDownloadStep = { action: 'prepare' } | { action: 'cleanup' } | { action: 'skip' };

/**
 * A rollout is on when not every node runs the new hash, or the hash is new to the status; it is skipped when
 * everything may go at once (partition 0 and maxUnavailable covering every desired node).
 */
export function preDownloadStep(
  ds: DaemonSetObject,
  rollout: DaemonSetRollout,
  hash: string,
): PreDownloadStep {
  const desired = ds.status?.desiredNumberScheduled ?? 0;
  const updated = ds.status?.updatedNumberScheduled ?? 0;
  if (updated === desired && statusHash(ds) === hash) return { action: 'cleanup' };
  const { maxUnavailable } = unavailableNumbers(rollout.maxUnavailable, rollout.maxSurge, desired);
  if (partitionNodes(rollout.partition, desired) === 0 && maxUnavailable >= desired)
    return { action: 'skip' };
  return { action: 'prepare' };
}

/** Pulls a rollout's new images onto the nodes ahead of the update (implemented with ImagePullJob). */
export interface ImagePreDownloader {
  /** Create what pulls `updateRevision`'s images (idempotent: called on every round of the rollout). */
  prepare(input: { daemonSet: DaemonSetObject; updateRevision: ControllerRevision }): Promise<void>;
  /** Remove what `prepare` created for this DaemonSet. */
  cleanup(daemonSet: DaemonSetObject): Promise<void>;
}
