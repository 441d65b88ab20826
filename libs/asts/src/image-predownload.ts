/**
 * Image pre-download for an Advanced StatefulSet rollout (OpenKruise
 * `pkg/controller/statefulset/statefulset_predownload_image.go`, docs/asts.md "Image pre-download"): the CloneSet
 * rules through `@regatta/image-predownload`, with the StatefulSet's own reasons not to.
 */
import { canUpdateInPlace } from '@regatta/inplace-update';
import { type IgnoreReason, ignoreReason } from '@regatta/image-predownload';
import { scaleK8s } from '@regatta/kube';
import type { ControllerRevision } from '@regatta/revision';
import { DEFAULT_STATEFULSET_MAX_UNAVAILABLE } from '@regatta/api';
import { type StatefulSetObject, effectiveSpec } from './statefulset-object.js';

/**
 * Why not to pre-download this update revision (undefined: create the jobs): OnDelete, no `rollingUpdate` or
 * `podUpdatePolicy` ReCreate; 3 replicas or fewer; every pod in one batch (partition 0 and maxUnavailable — default
 * 1, rounded down — covering every replica); or a change that cannot be made in place.
 */
export function statefulSetPreDownloadIgnore(
  set: StatefulSetObject,
  currentRevision: ControllerRevision,
  updateRevision: ControllerRevision,
): IgnoreReason | undefined {
  const spec = effectiveSpec(set);
  const ru = spec.updateStrategy?.rollingUpdate;
  const policy = ru?.podUpdatePolicy ?? 'ReCreate';
  const inPlaceStrategy = spec.updateType !== 'OnDelete' && ru != null && policy !== 'ReCreate';
  let maxUnavailable: number;
  try {
    maxUnavailable = scaleK8s(
      ru?.maxUnavailable ?? DEFAULT_STATEFULSET_MAX_UNAVAILABLE,
      spec.replicas,
      false,
    );
  } catch {
    maxUnavailable = 0;
  }
  return ignoreReason({
    inPlaceStrategy,
    replicas: spec.replicas,
    partition: ru?.partition ?? 0,
    maxUnavailable,
    pods: spec.replicas,
    inPlace:
      inPlaceStrategy &&
      canUpdateInPlace(currentRevision, updateRevision, {
        gracePeriodSeconds: ru?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
      }),
  });
}
