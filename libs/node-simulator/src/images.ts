// The per-node image service of the simulated container runtime: what images each node holds, and pulls that
// take `imagePullMs` and fail for `failPullImages`. Pods' images are recorded when their containers start.
import type { Faults } from './faults.js';
import { imageIdOf, imageSizeOf, nodeImageNames, normalizeImage, parseImageRef } from './image-ref.js';
import type { NodeImage } from './types.js';

export interface StoredImage {
  /** Normalized reference, e.g. `docker.io/library/nginx:alpine`. */
  ref: string;
  /** Digest reference (what container statuses report as imageID). */
  imageRef: string;
  names: string[];
  sizeBytes: number;
  pulledAt: number;
}

export interface PullOptions {
  /** Pull secrets (accepted and ignored: every registry is reachable and anonymous here). */
  secrets?: unknown[];
  signal?: AbortSignal;
}

export class ImagePullError extends Error {
  constructor(
    readonly node: string,
    readonly image: string,
    readonly reason: 'ErrImagePull' | 'NodeNotFound' | 'Aborted',
    message: string,
  ) {
    super(message);
    this.name = 'ImagePullError';
  }
}

/** Maximum images reported in node.status.images (kubelet's default nodeStatusMaxImages). */
export const MAX_NODE_STATUS_IMAGES = 50;

export class ImageService {
  private readonly store = new Map<string, Map<string, StoredImage>>();
  private readonly inflight = new Map<string, Promise<{ imageRef: string }>>();
  private readonly listeners: ((node: string) => void)[] = [];
  private readonly nodeListeners: ((node: string, present: boolean) => void)[] = [];

  constructor(
    nodes: string[],
    private readonly faults: Faults,
    private readonly pullMs: () => number,
  ) {
    for (const n of nodes) this.store.set(n, new Map());
  }

  /** Called with the node name whenever a node's images change. */
  onChange(listener: (node: string) => void): void {
    this.listeners.push(listener);
  }

  /** Called when a node is added to (true) or removed from (false) the service while running. */
  onNodes(listener: (node: string, present: boolean) => void): void {
    this.nodeListeners.push(listener);
  }

  /** The nodes that have an image store. */
  get nodes(): string[] {
    return [...this.store.keys()];
  }

  /** Gives a node added while running (an adopted one) an empty image store. */
  addNode(node: string): void {
    if (this.store.has(node)) return;
    this.store.set(node, new Map());
    for (const l of this.nodeListeners) l(node, true);
  }

  /** Forgets a node that is no longer run, with its images. */
  removeNode(node: string): void {
    if (!this.store.delete(node)) return;
    for (const l of this.nodeListeners) l(node, false);
  }

  private changed(node: string): void {
    for (const l of this.listeners) l(node);
  }

  private images(node: string): Map<string, StoredImage> {
    const m = this.store.get(node);
    if (!m) throw new ImagePullError(node, '', 'NodeNotFound', `node ${node} is not simulated here`);
    return m;
  }

  hasImage(node: string, image: string): boolean {
    return this.store.get(node)?.has(normalizeImage(image)) ?? false;
  }

  /** Records an image as present (a container started with it). */
  record(node: string, image: string, at = Date.now()): void {
    const m = this.store.get(node);
    if (!m || !image) return;
    const ref = normalizeImage(image);
    if (m.has(ref)) return;
    m.set(ref, {
      ref,
      imageRef: imageIdOf(image),
      names: nodeImageNames(image),
      sizeBytes: imageSizeOf(image),
      pulledAt: at,
    });
    this.changed(node);
  }

  /** Pulls an image onto a node: resolves after `imagePullMs` with its digest reference; fails per `failPullImages`. */
  pullImage(node: string, image: string, opts: PullOptions = {}): Promise<{ imageRef: string }> {
    try {
      this.images(node);
    } catch (err) {
      return Promise.reject(err as Error);
    }
    const key = `${node}\u0000${normalizeImage(image)}`;
    const running = this.inflight.get(key);
    if (running) return running;
    const p = new Promise<{ imageRef: string }>((resolve, reject) => {
      const timer = setTimeout(() => {
        opts.signal?.removeEventListener('abort', onAbort);
        if (this.faults.check.pullFails(image)) {
          const ref = parseImageRef(image);
          reject(
            new ImagePullError(
              node,
              image,
              'ErrImagePull',
              `rpc error: code = NotFound desc = failed to pull and unpack image "${ref.normalized}": ${ref.repository} not found (simulated)`,
            ),
          );
          return;
        }
        this.record(node, image);
        resolve({ imageRef: imageIdOf(image) });
      }, this.pullMs());
      const onAbort = () => {
        clearTimeout(timer);
        reject(new ImagePullError(node, image, 'Aborted', `pull of ${image} on ${node} aborted`));
      };
      if (opts.signal?.aborted) onAbort();
      else opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
    this.inflight.set(key, p);
    const clear = () => this.inflight.delete(key);
    p.then(clear, clear);
    return p;
  }

  listImages(node: string): StoredImage[] {
    return [...(this.store.get(node)?.values() ?? [])].map((i) => ({ ...i, names: [...i.names] }));
  }

  /** Removes an image from a node; false if it was not there. */
  removeImage(node: string, image: string): boolean {
    const removed = this.store.get(node)?.delete(normalizeImage(image)) ?? false;
    if (removed) this.changed(node);
    return removed;
  }

  /** node.status.images: largest first, at most 50, as kubelet reports them. */
  nodeStatusImages(node: string): NodeImage[] {
    return this.listImages(node)
      .sort((a, b) => b.sizeBytes - a.sizeBytes || a.ref.localeCompare(b.ref))
      .slice(0, MAX_NODE_STATUS_IMAGES)
      .map((i) => ({ names: i.names, sizeBytes: i.sizeBytes }));
  }
}
