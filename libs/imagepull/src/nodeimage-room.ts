/**
 * Whether a NodeImage has room for one more tag (docs/reliability.md finding 23). Each image entry of a NodeImage
 * carries the `sandboxConfig` of the last job that wrote it, and each tag the owner reference of every job pulling
 * it, so a node many jobs name grows without bound. Past etcd's request limit (1.5 MiB) the NodeImage can no longer
 * be written at all, and past 256 images the NodeImage webhook refuses it: either way the job's write would fail on
 * every retry. The ImagePullJob controller checks the NodeImage it is about to write, leaves that node out for a
 * while instead, and says why with an event. Upstream has no such check (`pkg/controller/imagepulljob`
 * syncNodeImages writes whatever it built); Regatta adds it.
 */
import { MAX_NODE_IMAGE_IMAGES, type ImageSpec, type NodeImage, KINDS } from '@regatta/api';
import { trimForMirror } from '@regatta/bus';
import { ownValue } from '@regatta/kube';

/**
 * The most a NodeImage the ImagePullJob controller writes may hold, as JSON (metadata, managed fields and status
 * included): a third under etcd's 1.5 MiB, so the agents' status writes of the tags already there still fit.
 */
export const NODE_IMAGE_BYTES_BUDGET = 1024 * 1024;

/** How long a job leaves out a node whose NodeImage had no room, before it tries again (tags expire, jobs go). */
export const NO_ROOM_RETRY_MS = 60_000;

/**
 * Why `current` with `spec.images[name]` set to `entry` should not be written, or undefined when it fits. Worked out
 * without copying or serializing the whole NodeImage: its size comes from `currentBytes` (the JSON size of
 * `current` as stored, {@link StoredSizes}) and the two entries. A job waiting for room asks this of the NodeImage it last saw before reading it afresh, so a
 * thousand waiting jobs do not each read a NodeImage of a megabyte every minute (docs/reliability.md finding 25).
 */
export function entryRoomProblem(
  current: NodeImage,
  currentBytes: number,
  name: string,
  entry: ImageSpec,
  budgetBytes = NODE_IMAGE_BYTES_BUDGET,
): string | undefined {
  const images = current.spec?.images ?? {};
  const count = Object.keys(images).length + (ownValue(images, name) === undefined ? 1 : 0);
  if (count > MAX_NODE_IMAGE_IMAGES)
    return `it would hold ${count} images, more than the ${MAX_NODE_IMAGE_IMAGES} a NodeImage may hold`;
  const bytes = bytesWithEntry(current, currentBytes, name, entry);
  if (bytes > budgetBytes)
    return `it would grow to ${kib(bytes)} KiB, past the ${kib(budgetBytes)} KiB this controller writes into one NodeImage (etcd refuses objects over 1.5 MiB)`;
  return undefined;
}

/** The JSON size of `current` (`currentBytes`) with `spec.images[name]` set to `entry`. */
export function bytesWithEntry(
  current: NodeImage,
  currentBytes: number,
  name: string,
  entry: ImageSpec,
): number {
  const images = current.spec?.images ?? {};
  if (Object.keys(images).length === 0)
    return (
      currentBytes -
      jsonBytes(current) +
      jsonBytes({ ...current, spec: { ...current.spec, images: { [name]: entry } } })
    );
  const before = ownValue(images, name);
  return before === undefined
    ? currentBytes + Buffer.byteLength(`,${JSON.stringify(name)}:`) + jsonBytes(entry)
    : currentBytes + jsonBytes(entry) - jsonBytes(before);
}

/** The UTF-8 size of `v` as JSON. */
export const jsonBytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v));

/**
 * The JSON size of NodeImages as the API server stores them, each object worked out once (the bus and the own-writes
 * hand out new objects for new versions). A cached copy lacks what the bus leaves out (managedFields, kubectl's
 * last-applied copy: libs/bus `trimForMirror`), 20–25 KB on a NodeImage of 250 images: counted without them, a full
 * NodeImage seemed to have room, and each job waiting for it read its megabyte only to find none (docs/
 * reliability.md finding 27). Those bytes are learnt per NodeImage from each copy read from the API server or
 * answered by a write, and added to the size of a cached copy.
 */
export class StoredSizes {
  readonly #bytes = new WeakMap<object, number>();
  /** Per NodeImage name: the bytes its cached copies lack, as last learnt. */
  readonly #leftOut = new Map<string, number>();

  /** Learns, from a NodeImage as stored (read or answered by a write), what its cached copies lack. */
  learn(stored: NodeImage): void {
    const name = stored.metadata?.name;
    if (!name || !stored.metadata?.managedFields) return;
    const trimmed = trimForMirror(stored, KINDS.nodeimages).metadata;
    this.#leftOut.set(name, jsonBytes(stored.metadata) - jsonBytes(trimmed));
  }

  /** The size of `ni` as stored: its JSON size, plus, for a cached copy (no managedFields), what it lacks. */
  of(ni: NodeImage): number {
    let bytes = this.#bytes.get(ni);
    if (bytes === undefined) this.#bytes.set(ni, (bytes = jsonBytes(ni)));
    if (ni.metadata?.managedFields) return bytes;
    return bytes + (this.#leftOut.get(ni.metadata?.name ?? '') ?? 0);
  }
}

const kib = (bytes: number) => Math.ceil(bytes / 1024);

/**
 * The nodes each job left out for want of room, and until when (milliseconds). A job's reconcile skips them while
 * they wait, so the rest of its nodes still get the tag within its parallelism; it is forgotten with the job.
 */
export class NoRoomNodes {
  readonly #byJob = new Map<string, Map<string, number>>();
  readonly #told = new Set<string>();

  /** True the first time it is asked for a job (until the job is forgotten): the log says it once per job. */
  firstFor(job: string): boolean {
    if (this.#told.has(job)) return false;
    this.#told.add(job);
    return true;
  }

  leaveOut(job: string, node: string, nowMs: number): void {
    let nodes = this.#byJob.get(job);
    if (!nodes) this.#byJob.set(job, (nodes = new Map()));
    nodes.set(node, nowMs + NO_ROOM_RETRY_MS);
  }

  /** The nodes of `names` the job may write now (the waits that are over are dropped). */
  writable(job: string, names: readonly string[], nowMs: number): string[] {
    const nodes = this.#byJob.get(job);
    if (!nodes) return [...names];
    for (const [node, until] of nodes) if (until <= nowMs) nodes.delete(node);
    if (nodes.size === 0) this.#byJob.delete(job);
    return names.filter((n) => !nodes.has(n));
  }

  /** Milliseconds until the job's first left-out node may be tried again; undefined when none waits. */
  nextRetryMs(job: string, nowMs: number): number | undefined {
    const nodes = this.#byJob.get(job);
    if (!nodes || nodes.size === 0) return undefined;
    return Math.max(0, Math.min(...nodes.values()) - nowMs);
  }

  forget(job: string): void {
    this.#byJob.delete(job);
    this.#told.delete(job);
  }
}
