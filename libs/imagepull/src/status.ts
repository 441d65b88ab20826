/**
 * An ImagePullJob's status from its target NodeImages (`pkg/controller/imagepulljob` calculateStatus): per node the
 * job's tag (written with the job's UID as an owner) and the status of that tag at the same version. Nodes without
 * the tag (or without the job's secrets) are "not synced": the sync writes them next, within the parallelism.
 */
import {
  ImagePullJobMessages,
  ImagePullPhases,
  type ImagePullJob,
  type ImagePullJobStatus,
  type NodeImage,
  type ReferenceObject,
} from '@regatta/api';
import { ownValue, toRfc3339 } from '@regatta/kube';
import { ImagePullError } from './errors.js';
import { normalizeImageRef } from './image-ref.js';

export interface CalculatedStatus {
  status: ImagePullJobStatus;
  /** Target NodeImages (names, sorted) whose tag or secrets this job still has to write. */
  notSynced: string[];
}

export function containsSecretRef(refs: readonly ReferenceObject[] | undefined, ref: ReferenceObject): boolean {
  return (refs ?? []).some((r) => r.namespace === ref.namespace && r.name === ref.name);
}

/** `status.message` for a computed status. */
export function statusMessage(status: ImagePullJobStatus): string {
  if (status.completionTime) return ImagePullJobMessages.Completed;
  if (status.desired === 0) return ImagePullJobMessages.NoProgress;
  return ImagePullJobMessages.progress((100 * ((status.succeeded ?? 0) + (status.failed ?? 0))) / status.desired);
}

/**
 * The new status. `secrets` are the synced secret refs every target's image entry must carry. Throws
 * {@link ImagePullError} for an image reference that does not parse.
 */
export function calculateStatus(
  job: ImagePullJob,
  nodeImages: readonly NodeImage[],
  secrets: readonly ReferenceObject[],
  now: Date,
): CalculatedStatus {
  const startTime = job.status?.startTime ?? toRfc3339(now);
  const ref = normalizeImageRef(job.spec.image);
  if (!ref) throw new ImagePullError('REGATTA_IMAGEPULL_INVALID_IMAGE', `invalid image ${job.spec.image}`);
  const uid = job.metadata?.uid;

  const pulling: string[] = [];
  const succeeded: string[] = [];
  const failed: string[] = [];
  const notSynced = new Set<string>();
  for (const ni of nodeImages) {
    const node = ni.metadata?.name ?? '';
    const image = ownValue(ni.spec?.images, ref.name);
    let version = -1;
    if (image) {
      if (secrets.some((s) => !containsSecretRef(image.pullSecrets, s))) notSynced.add(node);
      const tag = image.tags.find((t) => t.tag === ref.tag);
      if (tag && (tag.ownerReferences ?? []).some((o) => o.uid === uid)) version = tag.version ?? 0;
    }
    if (version < 0) {
      notSynced.add(node);
      continue;
    }
    const tagStatus = ownValue(ni.status?.imageStatuses, ref.name)?.tags.find((t) => t.tag === ref.tag);
    if (!tagStatus || (tagStatus.version ?? 0) !== version) pulling.push(node);
    else if (tagStatus.phase === ImagePullPhases.Succeeded) succeeded.push(node);
    else if (tagStatus.phase === ImagePullPhases.Failed) failed.push(node);
    else pulling.push(node);
  }

  const desired = nodeImages.length;
  const policy = job.spec.completionPolicy ?? {};
  const always = policy.type !== 'Never';
  const deadline = policy.activeDeadlineSeconds;
  if (always && deadline != null && desired !== succeeded.length + failed.length) {
    if (now.getTime() - Date.parse(startTime) >= deadline * 1000) {
      // as upstream: failed, then active, then the not-synced nodes — neither re-sorted nor de-duplicated
      const failedNodes = [...failed, ...pulling, ...[...notSynced].sort()];
      return {
        status: {
          startTime,
          completionTime: toRfc3339(now),
          desired,
          active: 0,
          succeeded: succeeded.length,
          failed: failedNodes.length,
          message: ImagePullJobMessages.ExceedsActiveDeadline,
          failedNodes,
        },
        notSynced: [],
      };
    }
  }

  const status: ImagePullJobStatus = {
    startTime,
    desired,
    active: pulling.length,
    succeeded: succeeded.length,
    failed: failed.length,
  };
  if (always && desired - succeeded.length - failed.length === 0) status.completionTime = toRfc3339(now);
  status.message = statusMessage(status);
  if (failed.length > 0) status.failedNodes = [...failed].sort();
  return { status: orderStatus(status), notSynced: [...notSynced].sort() };
}

/** Field order as upstream's JSON (stable output, comparable with a stored status). */
function orderStatus(s: ImagePullJobStatus): ImagePullJobStatus {
  return {
    ...(s.startTime ? { startTime: s.startTime } : {}),
    ...(s.completionTime ? { completionTime: s.completionTime } : {}),
    desired: s.desired,
    active: s.active ?? 0,
    succeeded: s.succeeded ?? 0,
    failed: s.failed ?? 0,
    ...(s.message ? { message: s.message } : {}),
    ...(s.failedNodes ? { failedNodes: s.failedNodes } : {}),
  };
}
