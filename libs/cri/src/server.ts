// Serving a CRI ImageService (and, when given, the RuntimeService subset) on a unix socket, as containerd serves both
// on one socket: handlers as async functions; a CriStatusError answers with its gRPC status, any other error with
// UNKNOWN and its message.
import { rm } from 'node:fs/promises';
import * as grpc from '@grpc/grpc-js';
import { CriStatusError } from './errors.js';
import type {
  Image,
  ImageFsInfoResponse,
  ListImagesRequest,
  PullImageRequest,
  PullImageResponse,
  RemoveImageRequest,
  ImageStatusRequest,
} from './messages.js';
import type {
  Container,
  ContainerStatus,
  ContainerStatusRequest,
  ListContainersRequest,
  StopContainerRequest,
} from './runtime-messages.js';
import { imageServiceDefinition, runtimeServiceDefinition, unixTarget } from './service.js';

export interface ImageServiceHandlers {
  /** Resolves when the image is stored; `signal` aborts when the client cancels or its deadline passes. */
  pullImage(req: PullImageRequest, signal: AbortSignal): Promise<PullImageResponse>;
  /** The image, or undefined when it is not present. */
  imageStatus(req: ImageStatusRequest): Promise<Image | undefined>;
  listImages(req: ListImagesRequest): Promise<Image[]>;
  /** Idempotent: removing an absent image is not an error. */
  removeImage(req: RemoveImageRequest): Promise<void>;
  imageFsInfo(): Promise<ImageFsInfoResponse>;
}

export interface RuntimeServiceHandlers {
  listContainers(req: ListContainersRequest): Promise<Container[]>;
  /** The container's status; throw a CriStatusError NOT_FOUND when there is no such container. */
  containerStatus(req: ContainerStatusRequest): Promise<ContainerStatus>;
  /** Resolves once the container has stopped (SIGTERM, then SIGKILL after `timeout` s); idempotent. */
  stopContainer(req: StopContainerRequest): Promise<void>;
}

export interface ImageServiceServer {
  socketPath: string;
  close(): Promise<void>;
}

type Call<Req> = grpc.ServerUnaryCall<Req, unknown>;
type Done = grpc.sendUnaryData<unknown>;

function answer<Req>(work: (call: Call<Req>) => Promise<unknown>): grpc.handleUnaryCall<Req, unknown> {
  return (call, callback: Done) => {
    work(call).then(
      (res) => callback(null, res),
      (err: unknown) =>
        callback({
          code: err instanceof CriStatusError ? err.grpcCode : grpc.status.UNKNOWN,
          details: (err as Error)?.message ?? String(err),
        }),
    );
  };
}

/** Serves `handlers` on `socketPath` (an old socket file there is replaced); resolves once listening. */
export async function serveImageService(
  socketPath: string,
  handlers: ImageServiceHandlers,
  runtime?: RuntimeServiceHandlers,
): Promise<ImageServiceServer> {
  await rm(socketPath, { force: true });
  const server = new grpc.Server();
  server.addService(imageServiceDefinition(), {
    PullImage: answer<PullImageRequest>((call) => {
      const ac = new AbortController();
      call.on('cancelled', () => ac.abort());
      return handlers.pullImage(call.request, ac.signal);
    }),
    ImageStatus: answer<ImageStatusRequest>(async (call) => ({
      image: await handlers.imageStatus(call.request),
    })),
    ListImages: answer<ListImagesRequest>(async (call) => ({
      images: await handlers.listImages(call.request),
    })),
    RemoveImage: answer<RemoveImageRequest>(async (call) => {
      await handlers.removeImage(call.request);
      return {};
    }),
    ImageFsInfo: answer(() => handlers.imageFsInfo()),
  });
  if (runtime) {
    server.addService(runtimeServiceDefinition(), {
      ListContainers: answer<ListContainersRequest>(async (call) => ({
        containers: await runtime.listContainers(call.request),
      })),
      ContainerStatus: answer<ContainerStatusRequest>(async (call) => ({
        status: await runtime.containerStatus(call.request),
      })),
      StopContainer: answer<StopContainerRequest>(async (call) => {
        await runtime.stopContainer(call.request);
        return {};
      }),
    });
  }
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(unixTarget(socketPath), grpc.ServerCredentials.createInsecure(), (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  return {
    socketPath,
    close: async () => {
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      await rm(socketPath, { force: true });
    },
  };
}
