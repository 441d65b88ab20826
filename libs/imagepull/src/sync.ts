/**
 * Writing an ImagePullJob's tag into a NodeImage (`pkg/controller/imagepulljob` syncNodeImages and the pull-policy
 * helpers of `imagepulljob_utils.go`), pure: given the NodeImage as read, the change to write, or `undefined` when
 * the node already has everything.
 */
import {
  DEFAULT_IMAGE_PULL_JOB_PARALLELISM,
  DEFAULT_PULL_BACKOFF_LIMIT,
  DEFAULT_PULL_TIMEOUT_SECONDS,
  IMAGE_PULL_JOB_API_VERSION,
  IMAGE_PULL_JOB_KIND,
  type ImagePullJob,
  type ImageSpec,
  type ImageTagPullPolicy,
  type NodeImage,
  type ObjectReference,
  type ReferenceObject,
} from '@regatta/api';
import { cloneJson, ownValue, toRfc3339 } from '@regatta/kube';
import { normalizeImageRef } from './image-ref.js';
import { containsSecretRef } from './status.js';

/** Tag TTL of a Never job: a day (± 10 min, so that a fleet does not re-pull at once). */
export const TTL_SECONDS_FOR_NEVER = 24 * 3600;
export const TTL_JITTER_FOR_NEVER = 600;
/** Least activeDeadlineSeconds of a Never job's tag. */
export const ACTIVE_DEADLINE_SECONDS_FOR_NEVER = 1800;
/** `--default-ttlseconds-for-always-nodeimage`: added to an Always job's tag TTL (0…2678400). */
export const DEFAULT_TTL_SECONDS_FOR_ALWAYS_NODEIMAGE = 300;

/** Knobs of the tag pull policy; `random(n)` is an integer in [0, n). */
export interface TagPolicyOptions {
  random?: (n: number) => number;
  /** `--default-ttlseconds-for-always-nodeimage`. */
  defaultTtlSecondsForAlways?: number;
  /** Regatta's test setting: the Never tag TTL (default a day, jittered ± 10 min; an override is not jittered). */
  ttlSecondsForNever?: number;
}

const defaultRandom = (n: number) => Math.floor(Math.random() * n);

/** `parallelism` as the controller reads it: unset → 1; an int or numeric string. */
export function parallelismOf(job: ImagePullJob): number {
  const p = job.spec.parallelism;
  if (p == null) return DEFAULT_IMAGE_PULL_JOB_PARALLELISM;
  const n = typeof p === 'number' ? p : Number.parseInt(p, 10);
  return Number.isFinite(n) ? n : DEFAULT_IMAGE_PULL_JOB_PARALLELISM;
}

export function activeDeadlineSecondsForNever(job: ImagePullJob): number {
  const timeout = job.spec.pullPolicy?.timeoutSeconds;
  return timeout != null && timeout > ACTIVE_DEADLINE_SECONDS_FOR_NEVER ? timeout : ACTIVE_DEADLINE_SECONDS_FOR_NEVER;
}

/** The largest value of the NodeImage tag's int32 `ttlSecondsAfterFinished`. */
const MAX_TAG_TTL_SECONDS = 2147483647;

/**
 * The tag's TTL for an `Always` job, at most the int32 the NodeImage field holds: a job's int64
 * `activeDeadlineSeconds` (any size is admitted) or a sum past it made the NodeImage write fail on every retry (docs/
 * reliability.md finding 21). Upstream converts with Go's int32 wrap-around (a deadline of 2^53 − 1 becomes −1).
 */
export function ttlSecondsForAlways(job: ImagePullJob, o: TagPolicyOptions = {}): number {
  const c = job.spec.completionPolicy ?? {};
  const base =
    c.ttlSecondsAfterFinished ??
    c.activeDeadlineSeconds ??
    (job.spec.pullPolicy?.timeoutSeconds ?? DEFAULT_PULL_TIMEOUT_SECONDS) *
      (job.spec.pullPolicy?.backoffLimit ?? DEFAULT_PULL_BACKOFF_LIMIT);
  const ttl = base + (o.defaultTtlSecondsForAlways ?? DEFAULT_TTL_SECONDS_FOR_ALWAYS_NODEIMAGE) + (o.random ?? defaultRandom)(300);
  return Math.min(ttl, MAX_TAG_TTL_SECONDS);
}

export function ttlSecondsForNever(o: TagPolicyOptions = {}): number {
  if (o.ttlSecondsForNever != null) return o.ttlSecondsForNever;
  return TTL_SECONDS_FOR_NEVER + (o.random ?? defaultRandom)(2 * TTL_JITTER_FOR_NEVER) - TTL_JITTER_FOR_NEVER;
}

/** The `pullPolicy` of the tag a job writes. */
export function tagPullPolicy(job: ImagePullJob, o: TagPolicyOptions = {}): ImageTagPullPolicy {
  const p: ImageTagPullPolicy = {};
  if (job.spec.pullPolicy?.timeoutSeconds != null) p.timeoutSeconds = job.spec.pullPolicy.timeoutSeconds;
  if (job.spec.pullPolicy?.backoffLimit != null) p.backoffLimit = job.spec.pullPolicy.backoffLimit;
  if (job.spec.completionPolicy?.type === 'Never') {
    p.ttlSecondsAfterFinished = ttlSecondsForNever(o);
    p.activeDeadlineSeconds = activeDeadlineSecondsForNever(job);
  } else {
    p.ttlSecondsAfterFinished = ttlSecondsForAlways(job, o);
    if (job.spec.completionPolicy?.activeDeadlineSeconds != null)
      p.activeDeadlineSeconds = job.spec.completionPolicy.activeDeadlineSeconds;
  }
  return p;
}

/** The owner reference a job's tag carries. */
export function jobOwnerRef(job: ImagePullJob): ObjectReference {
  return {
    apiVersion: IMAGE_PULL_JOB_API_VERSION,
    kind: IMAGE_PULL_JOB_KIND,
    name: job.metadata?.name ?? '',
    namespace: job.metadata?.namespace ?? '',
    uid: job.metadata?.uid ?? '',
  };
}

const sameOwner = (a: ObjectReference, b: ObjectReference) =>
  a.uid === b.uid && a.name === b.name && a.namespace === b.namespace && a.kind === b.kind;

export function sortTags<T extends { tag: string }>(tags: T[]): T[] {
  return tags.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
}

/**
 * The job's entry of the NodeImage's `spec.images` with its tag and secrets written (the image's name and the
 * entry), or `undefined` when the node already has everything; the NodeImage is neither copied nor changed
 * (nodeimage-writes.ts writes it). A tag this job already owns only gets missing secrets; a tag owned by others gets
 * this job as an owner and a new version (a new pull round for everyone); an absent tag is added at the status
 * version + 1 (so a re-added tag pulls again).
 */
export function nextImageEntry(
  nodeImage: NodeImage,
  job: ImagePullJob,
  secrets: readonly ReferenceObject[],
  now: Date,
  o: TagPolicyOptions = {},
): { name: string; entry: ImageSpec } | undefined {
  const ref = normalizeImageRef(job.spec.image);
  if (!ref) return undefined;
  const image: ImageSpec = cloneJson(ownValue(nodeImage.spec?.images, ref.name)) ?? { tags: [] };
  image.tags ??= [];
  if (job.spec.sandboxConfig) image.sandboxConfig = job.spec.sandboxConfig;
  else delete image.sandboxConfig;
  const owner = jobOwnerRef(job);
  const at = toRfc3339(now);
  const addMissingSecrets = (): boolean => {
    let added = false;
    for (const s of secrets) {
      if (!containsSecretRef(image.pullSecrets, s)) {
        image.pullSecrets = [...(image.pullSecrets ?? []), s];
        added = true;
      }
    }
    return added;
  };

  const tag = image.tags.find((t) => t.tag === ref.tag);
  if (tag && (tag.ownerReferences ?? []).some((r) => sameOwner(r, owner))) {
    if (!addMissingSecrets()) return undefined;
  } else if (tag) {
    tag.version = (tag.version ?? 0) + 1;
    tag.ownerReferences = [...(tag.ownerReferences ?? []), owner];
    tag.createdAt = at;
    if (job.spec.imagePullPolicy) tag.imagePullPolicy = job.spec.imagePullPolicy;
    else delete tag.imagePullPolicy;
    addMissingSecrets();
  } else {
    const statusVersion =
      ownValue(nodeImage.status?.imageStatuses, ref.name)?.tags.find((t) => t.tag === ref.tag)?.version ?? -1;
    image.tags.push({
      tag: ref.tag,
      createdAt: at,
      pullPolicy: tagPullPolicy(job, o),
      ownerReferences: [owner],
      version: statusVersion + 1,
      ...(job.spec.imagePullPolicy ? { imagePullPolicy: job.spec.imagePullPolicy } : {}),
    });
    addMissingSecrets();
  }
  sortTags(image.tags);
  return { name: ref.name, entry: image };
}

/** How many not-synced NodeImages this pass may write: parallelism − active, at most all of them. */
export function syncBudget(job: ImagePullJob, active: number, notSynced: number): number {
  return Math.max(0, Math.min(parallelismOf(job) - active, notSynced));
}
