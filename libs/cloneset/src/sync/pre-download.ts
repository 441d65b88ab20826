/**
 * Image pre-download (OpenKruise `pkg/controller/cloneset/cloneset_controller.go`, `createImagePullJobsForInPlaceUpdate`):
 * when {@link preDownloadStep} says so, the wired {@link ImagePreDownloader} creates or removes the pull jobs.
 * Pulling ahead only saves time: a failure is logged and the rollout goes on.
 */
import type { ControllerRevision } from '@regatta/revision';
import type { ReconcileContext } from '@regatta/runtime';
import { type CloneSetObject, nameOf, rolloutSpec } from '../cloneset-object.js';
import { type ImagePreDownloader, preDownloadStep } from '../image-predownload.js';

export async function preDownload(
  downloader: ImagePreDownloader | undefined,
  cs: CloneSetObject,
  currentRevision: ControllerRevision,
  updateRevision: ControllerRevision,
  log: ReconcileContext['log'],
): Promise<void> {
  if (!downloader) return;
  const step = preDownloadStep({
    annotations: cs.metadata?.annotations,
    replicas: rolloutSpec(cs).replicas ?? 1,
    currentRevision: nameOf(currentRevision),
    updateRevision: nameOf(updateRevision),
    status: cs.status as { updateRevision?: string; updatedReadyReplicas?: number } | undefined,
  });
  try {
    if (step.action === 'prepare')
      await downloader.prepare({ cloneSet: cs, currentRevision, updateRevision });
    else if (step.action === 'cleanup') await downloader.cleanup(cs);
  } catch (err) {
    log.warn({ err, step: step.action }, 'image pre-download failed');
  }
}
