/**
 * Image pre-download for a CloneSet rollout (OpenKruise `pkg/controller/cloneset/cloneset_predownload_image.go`,
 * docs/cloneset.md "Image pre-download"): with the gates `KruiseDaemon` and `PreDownloadImageForInPlaceUpdate`, the
 * images an in-place rollout brings are pulled first onto the nodes of the pods still to update, with ImagePullJobs.
 * When and how is `@regatta/image-predownload`'s (shared with Advanced StatefulSet and Advanced DaemonSet); this
 * file holds only what is CloneSet's: why a revision is not pre-downloaded.
 */
import { canUpdateInPlace } from '@regatta/inplace-update';
import { type IgnoreReason, ignoreReason } from '@regatta/image-predownload';
import { partitionOf, scaleK8s } from '@regatta/kube';
import type { ControllerRevision } from '@regatta/revision';
import { DEFAULT_MAX_UNAVAILABLE } from '@regatta/rollout';
import { type CloneSetFeatureGates, type CloneSetObject, rolloutSpec } from './cloneset-object.js';

function orZero(f: () => number): number {
  try {
    return f();
  } catch {
    return 0;
  }
}

/**
 * Why not to pre-download this update revision (undefined: create the jobs): ReCreate; 3 replicas or fewer; every
 * pod in one batch (partition 0, maxUnavailable — default 20 %, rounded down — covering every replica); or a
 * change that cannot be made in place.
 */
export function cloneSetPreDownloadIgnore(
  cs: CloneSetObject,
  currentRevision: ControllerRevision,
  updateRevision: ControllerRevision,
  gates: Pick<CloneSetFeatureGates, 'RecreatePodWhenChangeVCTInCloneSetGate'>,
): IgnoreReason | undefined {
  const spec = rolloutSpec(cs);
  const replicas = spec.replicas ?? 1;
  const type = spec.updateStrategy?.type ?? 'ReCreate';
  const inPlaceStrategy = type === 'InPlaceIfPossible' || type === 'InPlaceOnly';
  return ignoreReason({
    inPlaceStrategy,
    replicas,
    partition: orZero(() => partitionOf(spec.updateStrategy?.partition, replicas)),
    maxUnavailable: orZero(() =>
      scaleK8s(spec.updateStrategy?.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, replicas, false),
    ),
    pods: replicas,
    inPlace:
      inPlaceStrategy &&
      canUpdateInPlace(currentRevision, updateRevision, {
        recreatePodWhenChangeVCT: gates.RecreatePodWhenChangeVCTInCloneSetGate,
        ...(type === 'InPlaceOnly' ? { ignoreVolumeClaimTemplatesHashDiff: true } : {}),
      }),
  });
}
