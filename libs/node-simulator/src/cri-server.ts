// Each simulated node's container runtime as a CRI ImageService (`runtime.v1`, gRPC on a unix socket
// `<dir>/<node>.sock`), served from the simulator's image service: pulls take `imagePullMs` and fail for
// `failPullImages`, pulled images are what node.status.images shows. With the pod manager, the same socket serves the
// RuntimeService subset of libs/cri (ListContainers, ContainerStatus, StopContainer) over the simulated kubelet's
// containers. A node agent (apps/imagepull-agent) or crictl talks to it as to containerd's socket.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CriStatusError,
  GrpcStatus,
  serveImageService,
  type ContainerStatus,
  type Image,
  type ImageServiceServer,
} from '@regatta/cri';
import { ImagePullError, type ImageService, type StoredImage } from './images.js';
import { normalizeImage, parseImageRef } from './image-ref.js';
import { criContainer, matchesFilter } from './runtime-cri.js';

/** A node's containers as its RuntimeService serves them (the simulator's pod manager). */
export interface NodeContainers {
  criContainers(node: string): ContainerStatus[];
  stopCriContainer(node: string, id: string, graceSeconds: number): Promise<void>;
}

/** The socket of a node's ImageService in `dir`. */
export function criSocketPath(dir: string, node: string): string {
  return join(dir, `${node}.sock`);
}

/** A stored image as the CRI describes it: id `sha256:…`, tags and digests by repository. */
export function criImage(i: StoredImage): Image {
  const at = i.imageRef.indexOf('@');
  return {
    id: at >= 0 ? i.imageRef.slice(at + 1) : i.imageRef,
    repoTags: i.names.filter((n) => !n.includes('@')),
    repoDigests: i.names.filter((n) => n.includes('@')),
    size: i.sizeBytes,
    spec: { image: i.ref },
    username: '',
    pinned: false,
  };
}

function findImage(images: ImageService, node: string, ref: string): StoredImage | undefined {
  if (!ref) return undefined;
  const wanted = normalizeImage(ref);
  const digest = parseImageRef(ref).digest;
  return images
    .listImages(node)
    .find(
      (i) =>
        i.ref === wanted ||
        i.imageRef === ref ||
        (digest !== undefined && i.imageRef.endsWith(`@${digest}`)) ||
        i.imageRef.endsWith(`@${ref}`),
    );
}

/** Serves every node's ImageService in `dir`, following nodes added and removed; `close` stops them all. */
export class CriServers {
  private readonly servers = new Map<string, Promise<ImageServiceServer>>();

  constructor(
    private readonly dir: string,
    private readonly images: ImageService,
    private readonly log: (line: string) => void,
    /** The containers of each node (unset: the ImageService only). Read when a call comes. */
    private readonly containers: () => NodeContainers | undefined = () => undefined,
  ) {}

  async start(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    this.images.onNodes((node, present) => void (present ? this.serve(node) : this.unserve(node)));
    await Promise.all(this.images.nodes.map((n) => this.serve(n)));
  }

  async close(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(all.map(async (s) => (await s.catch(() => undefined))?.close()));
  }

  private serve(node: string): Promise<ImageServiceServer> {
    let s = this.servers.get(node);
    if (s) return s;
    const images = this.images;
    s = serveImageService(
      criSocketPath(this.dir, node),
      {
        async pullImage(req, signal) {
          const image = req.image?.image ?? '';
          if (!image) throw new CriStatusError(GrpcStatus.INVALID_ARGUMENT, 'image must be set');
          try {
            return await images.pullImage(node, image, { secrets: req.auth ? [req.auth] : [], signal });
          } catch (err) {
            if (err instanceof ImagePullError) {
              const code =
                err.reason === 'Aborted'
                  ? GrpcStatus.CANCELLED
                  : err.reason === 'NodeNotFound'
                    ? GrpcStatus.UNAVAILABLE
                    : GrpcStatus.NOT_FOUND;
              throw new CriStatusError(code, err.message);
            }
            throw err;
          }
        },
        async imageStatus(req) {
          const found = findImage(images, node, req.image?.image ?? '');
          return found ? criImage(found) : undefined;
        },
        async listImages(req) {
          const filter = req.filter?.image?.image;
          const all = images.listImages(node);
          const found = filter ? findImage(images, node, filter) : undefined;
          return (filter ? (found ? [found] : []) : all).map(criImage);
        },
        async removeImage(req) {
          const found = findImage(images, node, req.image?.image ?? '');
          if (found) images.removeImage(node, found.ref);
        },
        async imageFsInfo() {
          const used = images.listImages(node).reduce((sum, i) => sum + i.sizeBytes, 0);
          return {
            imageFilesystems: [
              {
                timestamp: Date.now() * 1_000_000,
                fsId: { mountpoint: `/var/lib/containerd/${node}` },
                usedBytes: { value: used },
                inodesUsed: { value: images.listImages(node).length },
              },
            ],
            containerFilesystems: [],
          };
        },
      },
      {
        listContainers: async (req) =>
          (this.containers()?.criContainers(node) ?? [])
            .filter((c) => matchesFilter(c, req.filter))
            .map(criContainer),
        containerStatus: async (req) => {
          const found = this.containers()
            ?.criContainers(node)
            .find((c) => c.id === req.containerId);
          if (!found)
            throw new CriStatusError(GrpcStatus.NOT_FOUND, `container "${req.containerId}" not found`);
          return found;
        },
        stopContainer: async (req) => {
          const c = this.containers();
          if (!c) throw new CriStatusError(GrpcStatus.UNAVAILABLE, `no containers on node ${node} yet`);
          await c.stopCriContainer(node, req.containerId, req.timeout);
        },
      },
    );
    s.catch((err: unknown) =>
      this.log(`CRI ImageService of ${node} not served: ${String((err as Error)?.message ?? err)}`),
    );
    this.servers.set(node, s);
    return s;
  }

  private async unserve(node: string): Promise<void> {
    const s = this.servers.get(node);
    this.servers.delete(node);
    await (await s?.catch(() => undefined))?.close();
  }
}
