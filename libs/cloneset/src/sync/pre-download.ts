/**
 * Image pre-download (OpenKruise `pkg/controller/cloneset/cloneset_controller.go` `doReconcile`, before scale and
 * update): with the gates on, during a rollout and once `image-predownload-min-updated-ready-pods` updated pods are
 * ready, the update revision's new images get ImagePullJobs (once per revision); without a rollout the CloneSet's
 * jobs are deleted. Pulling ahead only saves time: a failure is logged and the rollout goes on, as upstream.
 */
import {
  type ImagePreDownloadControl,
  preDownloadSettings,
  rolloutPreDownloadStep,
} from '@regatta/image-predownload';
import { type ControllerRevision, type PodTemplate, templateFromRevision } from '@regatta/revision';
import type { ReconcileContext } from '@regatta/runtime';
import {
  CLONESET_GVK,
  type CloneSetFeatureGates,
  type CloneSetObject,
  nameOf,
  rolloutSpec,
} from '../cloneset-object.js';
import { cloneSetPreDownloadIgnore } from '../image-predownload.js';

export async function preDownload(
  control: ImagePreDownloadControl | undefined,
  gates: CloneSetFeatureGates,
  cs: CloneSetObject,
  currentRevision: ControllerRevision,
  updateRevision: ControllerRevision,
  log: ReconcileContext['log'],
): Promise<void> {
  if (!control || !gates.KruiseDaemon || !gates.PreDownloadImageForInPlaceUpdate) return;
  const annotations = cs.metadata?.annotations;
  const step = rolloutPreDownloadStep({
    annotations,
    replicas: rolloutSpec(cs).replicas ?? 1,
    currentRevision: nameOf(currentRevision),
    updateRevision: nameOf(updateRevision),
    status: cs.status as { updateRevision?: string; updatedReadyReplicas?: number } | undefined,
  });
  await control.sync(
    step,
    cs,
    updateRevision,
    () => ({
      ownerKind: CLONESET_GVK,
      selector: cs.spec?.selector ?? {},
      template: (cs.spec?.['template'] ?? {}) as PodTemplate,
      oldTemplates: [templateFromRevision(currentRevision)],
      settings: preDownloadSettings(annotations),
      ignore: cloneSetPreDownloadIgnore(cs, currentRevision, updateRevision, gates),
    }),
    log,
  );
}
