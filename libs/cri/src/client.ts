// A client of a CRI ImageService on a unix socket: what kruise-daemon's `criruntime/imageruntime/cri.go` does with
// containerd, here as promises with deadlines and abort signals.
import * as grpc from '@grpc/grpc-js';
import { CriCallError } from './errors.js';
import type {
  AuthConfig,
  Image,
  ImageFsInfoResponse,
  ImageSpec,
  ImageStatusResponse,
  ListImagesResponse,
  PodSandboxConfig,
  PullImageResponse,
} from './messages.js';
import { imageServiceDefinition, unixTarget } from './service.js';

export interface CallOptions {
  /** Give up (DEADLINE_EXCEEDED) after this many milliseconds. */
  timeoutMs?: number;
  /** Cancels the call (CANCELLED). */
  signal?: AbortSignal;
}

type Unary = (
  req: unknown,
  meta: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res?: unknown) => void,
) => grpc.ClientUnaryCall;

const ImageServiceClient = grpc.makeClientConstructor(imageServiceDefinition(), 'runtime.v1.ImageService');

export class CriImageClient {
  private readonly client: grpc.Client;

  /** `socketPath`: the runtime's socket (`/run/containerd/containerd.sock`, or a `unix://` target). */
  constructor(readonly socketPath: string) {
    this.client = new ImageServiceClient(unixTarget(socketPath), grpc.credentials.createInsecure());
  }

  pullImage(
    image: string,
    o: CallOptions & { auth?: AuthConfig; sandboxConfig?: PodSandboxConfig } = {},
  ): Promise<PullImageResponse> {
    const req = { image: { image } satisfies ImageSpec, auth: o.auth, sandboxConfig: o.sandboxConfig };
    return this.call<PullImageResponse>('PullImage', 'pullImage', req, o);
  }

  /** The image as the runtime stores it, or undefined when it is not present. */
  async imageStatus(image: string, o: CallOptions = {}): Promise<Image | undefined> {
    const res = await this.call<ImageStatusResponse>('ImageStatus', 'imageStatus', { image: { image } }, o);
    return res.image ?? undefined;
  }

  async listImages(o: CallOptions & { filter?: string } = {}): Promise<Image[]> {
    const req = o.filter ? { filter: { image: { image: o.filter } } } : {};
    return (await this.call<ListImagesResponse>('ListImages', 'listImages', req, o)).images;
  }

  async removeImage(image: string, o: CallOptions = {}): Promise<void> {
    await this.call('RemoveImage', 'removeImage', { image: { image } }, o);
  }

  imageFsInfo(o: CallOptions = {}): Promise<ImageFsInfoResponse> {
    return this.call<ImageFsInfoResponse>('ImageFsInfo', 'imageFsInfo', {}, o);
  }

  close(): void {
    this.client.close();
  }

  private call<T>(method: string, fn: string, req: unknown, o: CallOptions): Promise<T> {
    return unaryCall<T>(this.client, method, fn, req, o);
  }
}

/** One unary call of a grpc-js client built from the proto, by its method name, with deadline and abort. */
export function unaryCall<T>(
  client: grpc.Client,
  method: string,
  fn: string,
  req: unknown,
  o: CallOptions,
): Promise<T> {
  // cast through unknown: grpc-js builds the service's methods at run time from the proto; they are looked up by name
  const unary = (client as unknown as Record<string, Unary>)[fn]!.bind(client);
  return new Promise<T>((resolve, reject) => {
    if (o.signal?.aborted) {
      reject(new CriCallError(method, grpc.status.CANCELLED, 'cancelled before the call'));
      return;
    }
    const opts: grpc.CallOptions = o.timeoutMs !== undefined ? { deadline: Date.now() + o.timeoutMs } : {};
    const onAbort = () => call.cancel();
    const call = unary(req, new grpc.Metadata(), opts, (err, res) => {
      o.signal?.removeEventListener('abort', onAbort);
      if (err) reject(new CriCallError(method, err.code, err.details, { cause: err }));
      else resolve(res as T);
    });
    o.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
