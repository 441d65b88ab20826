/**
 * The NodeImage controller's status guard (`pkg/controller/nodeimage` updateNodeImageStatus), pure: a tag the node
 * has not answered (no status of its version) 10 min after `createdAt` fails with "node has not responded for a long
 * time"; an unfinished tag past `createdAt + activeDeadlineSeconds + 10 min` fails with "pulling exceeds the
 * activeDeadlineSeconds". Counts are recomputed over the tags present in spec.
 */
import {
  ImagePullPhases,
  NodeImageMessages,
  type ImageStatus,
  type ImageTagStatus,
  type NodeImage,
  type NodeImageStatus,
  type ObjectReference,
} from '@regatta/api';
import { cloneJson, jsonEqual, ownValue, toRfc3339 } from '@regatta/kube';
import { sortTags } from './sync.js';

/** How long a node has to acknowledge a tag (upstream `responseTimeout`). */
export const RESPONSE_TIMEOUT_MS = 10 * 60_000;

export interface TagFailure {
  image: string;
  tag: string;
  message: string;
  owners: ObjectReference[];
}

export interface StatusGuard {
  /** The status to write, when it changed. */
  status?: NodeImageStatus;
  failures: TagFailure[];
  waitMs?: number;
}

export function guardNodeImageStatus(nodeImage: NodeImage, now: Date, responseTimeoutMs = RESPONSE_TIMEOUT_MS): StatusGuard {
  const at = toRfc3339(now);
  const status: NodeImageStatus = cloneJson(nodeImage.status ?? { desired: 0 });
  const failures: TagFailure[] = [];
  let waitMs: number | undefined;
  const wait = (ms: number) => (waitMs = Math.min(waitMs ?? ms, ms));
  const inSpec = new Set<string>();

  for (const [name, image] of Object.entries(nodeImage.spec?.images ?? {})) {
    const imageStatus: ImageStatus = ownValue(status.imageStatuses, name) ?? { tags: [] };
    for (const tag of image.tags ?? []) {
      inSpec.add(`${name}:${tag.tag}`);
      if (!tag.createdAt) continue;
      const created = Date.parse(tag.createdAt);
      const version = tag.version ?? 0;
      let st: ImageTagStatus | undefined = imageStatus.tags.find((s) => s.tag === tag.tag);
      let failed: string | undefined;
      if (!st || (st.version ?? 0) !== version) {
        const left = responseTimeoutMs - (now.getTime() - created);
        if (left > 0) {
          wait(left);
          continue;
        }
        if (!st) {
          st = { tag: tag.tag, phase: ImagePullPhases.Failed };
          imageStatus.tags.push(st);
        }
        Object.assign(st, { phase: ImagePullPhases.Failed, completionTime: at, version, message: NodeImageMessages.NotResponded });
        failed = NodeImageMessages.NotResponded;
      }
      const deadline = tag.pullPolicy?.activeDeadlineSeconds;
      if (!st.completionTime && deadline != null) {
        const left = deadline * 1000 + responseTimeoutMs - (now.getTime() - created);
        if (left > 0) {
          wait(left);
          continue;
        }
        Object.assign(st, {
          phase: ImagePullPhases.Failed,
          completionTime: at,
          version,
          message: NodeImageMessages.ExceedsActiveDeadline,
        });
        failed = NodeImageMessages.ExceedsActiveDeadline;
      }
      if (failed) failures.push({ image: name, tag: tag.tag, message: failed, owners: tag.ownerReferences ?? [] });
    }
    if (imageStatus.tags.length > 0) {
      sortTags(imageStatus.tags);
      (status.imageStatuses ??= {})[name] = imageStatus;
    }
  }

  // as upstream: nothing to write unless a tag was failed here (a status of a removed tag stays until the node
  // rewrites its status, so a re-added tag continues at the next version) — or the NodeImage has no status yet
  if (nodeImage.status && jsonEqual((status.imageStatuses ?? {}) as never, (nodeImage.status.imageStatuses ?? {}) as never)) {
    return { failures, ...(waitMs !== undefined ? { waitMs } : {}) };
  }
  // counts over the tags in spec; statuses of tags no longer in spec are dropped
  let succeeded = 0;
  let failed = 0;
  let pulling = 0;
  let waiting = 0;
  const kept: Record<string, ImageStatus> = {};
  for (const [name, imageStatus] of Object.entries(status.imageStatuses ?? {})) {
    if (!ownValue(nodeImage.spec?.images, name)) continue;
    const tags = imageStatus.tags.filter((t) => inSpec.has(`${name}:${t.tag}`));
    for (const t of tags) {
      if (t.phase === ImagePullPhases.Succeeded) succeeded++;
      else if (t.phase === ImagePullPhases.Failed) failed++;
      else if (t.phase === ImagePullPhases.Pulling) pulling++;
      else if (t.phase === ImagePullPhases.Waiting) waiting++;
    }
    if (tags.length > 0) kept[name] = { ...imageStatus, tags };
  }
  const next: NodeImageStatus = {
    ...status,
    desired: inSpec.size,
    succeeded,
    failed,
    pulling,
    waiting,
    ...(Object.keys(kept).length > 0 ? { imageStatuses: kept } : {}),
  };
  if (Object.keys(kept).length === 0) delete next.imageStatuses;
  const changed = !jsonEqual(next as never, (nodeImage.status ?? {}) as never);
  return { ...(changed ? { status: next } : {}), failures, ...(waitMs !== undefined ? { waitMs } : {}) };
}

/** The Warning event text of a failed tag (`Failed to pull image %v on node %v for %v`). */
export function pullFailedMessage(f: TagFailure, node: string): string {
  return `Failed to pull image ${f.image}:${f.tag} on node ${node} for ${f.message}`;
}
