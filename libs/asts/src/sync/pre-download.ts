/**
 * Image pre-download (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `doPreDownload`): with the
 * gates `KruiseDaemon` and `PreDownloadImageForInPlaceUpdate` on, during a rollout and once
 * `image-predownload-min-updated-ready-pods` updated pods are ready, the update revision's new images get
 * ImagePullJobs (once per revision); without a rollout the set's jobs are deleted. A failure is logged and the
 * rollout goes on, as upstream.
 */
import {
  type ImagePreDownloadControl,
  preDownloadSettings,
  rolloutPreDownloadStep,
} from '@regatta/image-predownload';
import { type ControllerRevision, type PodTemplate, templateFromRevision } from '@regatta/revision';
import type { ReconcileContext } from '@regatta/runtime';
import { statefulSetPreDownloadIgnore } from '../image-predownload.js';
import {
  type AstsFeatureGates,
  STATEFULSET_GVK,
  type StatefulSetObject,
  effectiveSpec,
  nameOf,
} from '../statefulset-object.js';

export async function preDownloadStep(
  control: ImagePreDownloadControl | undefined,
  gates: AstsFeatureGates,
  set: StatefulSetObject,
  currentRevision: ControllerRevision,
  updateRevision: ControllerRevision,
  log: ReconcileContext['log'],
): Promise<void> {
  if (!control || !gates.KruiseDaemon || !gates.PreDownloadImageForInPlaceUpdate) return;
  const annotations = set.metadata?.annotations;
  const step = rolloutPreDownloadStep({
    annotations,
    replicas: effectiveSpec(set).replicas,
    currentRevision: nameOf(currentRevision),
    updateRevision: nameOf(updateRevision),
    status: set.status,
  });
  await control.sync(
    step,
    set,
    updateRevision,
    () => ({
      ownerKind: STATEFULSET_GVK,
      selector: set.spec?.selector ?? {},
      template: (set.spec?.template ?? {}) as PodTemplate,
      oldTemplates: [templateFromRevision(currentRevision)],
      settings: preDownloadSettings(annotations),
      ignore: statefulSetPreDownloadIgnore(set, currentRevision, updateRevision),
    }),
    log,
  );
}
