/**
 * Image pre-download for an Advanced DaemonSet rollout (OpenKruise `pkg/controller/daemonset/daemonset_controller.go`
 * `syncDaemonSet` and `daemonset_predownload_image.go`, docs/ads.md "Image pre-download"): with the gates
 * `KruiseDaemon` and `PreDownloadImageForDaemonSetUpdate`, a rollout first pulls the new images onto the nodes of
 * the pods still to update with ImagePullJobs, through `@regatta/image-predownload`. As upstream,
 * `min-updated-ready-pods` is not enforced for DaemonSets, replicas and in-place-ability are not checked, and the
 * images are compared with every old revision.
 */
import { type IgnoreReason, ignoreReason } from '@regatta/image-predownload';
import { scaleK8s } from '@regatta/kube';
import { type DaemonSetObject, type DaemonSetRollout, statusHash } from './daemonset-object.js';

export type PreDownloadStep = { action: 'prepare' } | { action: 'cleanup' };

/** A rollout is on when not every node runs the new hash, or the hash is new to the status. */
export function preDownloadStep(ds: DaemonSetObject, hash: string): PreDownloadStep {
  const desired = ds.status?.desiredNumberScheduled ?? 0;
  const updated = ds.status?.updatedNumberScheduled ?? 0;
  if (updated === desired && statusHash(ds) === hash) return { action: 'cleanup' };
  return { action: 'prepare' };
}

function scaledOrZero(v: DaemonSetRollout['partition'], total: number, roundUp: boolean): number {
  try {
    return scaleK8s(v, total, roundUp);
  } catch {
    return 0;
  }
}

/**
 * The one reason not to pre-download a DaemonSet's revision: every node in one batch — partition (rounded down)
 * 0 and maxUnavailable (rounded up) covering `status.desiredNumberScheduled`.
 */
export function daemonSetPreDownloadIgnore(
  ds: DaemonSetObject,
  rollout: DaemonSetRollout,
): IgnoreReason | undefined {
  const desired = ds.status?.desiredNumberScheduled ?? 0;
  return ignoreReason({
    partition: scaledOrZero(rollout.partition, desired, false),
    maxUnavailable: scaledOrZero(rollout.maxUnavailable, desired, true),
    pods: desired,
  });
}
