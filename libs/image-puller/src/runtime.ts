// What a tag worker needs of the node's container runtime, and its CRI implementation
// (`pkg/daemon/criruntime/imageruntime/cri.go`): each pull secret matching the registry is tried, then an
// anonymous pull; the sandbox config goes along with the annotation `apps.kruise.io/pulling-image-by`.
import { CriImageClient, type AuthConfig } from '@regatta/cri';
import type { SandboxConfig } from './types.js';

export const PULLING_IMAGE_BY_ANNOTATION = 'apps.kruise.io/pulling-image-by';

export interface PullRequest {
  /** Registry credentials to try in order before an anonymous pull. */
  auths: AuthConfig[];
  sandboxConfig?: SandboxConfig;
  timeoutMs: number;
  signal: AbortSignal;
}

export interface ImageRuntime {
  /** The runtime's image ID (`sha256:…`) of `ref` when present. */
  imageId(ref: string, signal?: AbortSignal): Promise<string | undefined>;
  pull(ref: string, req: PullRequest): Promise<void>;
}

export class CriImageRuntime implements ImageRuntime {
  constructor(private readonly client: CriImageClient) {}

  async imageId(ref: string, signal?: AbortSignal): Promise<string | undefined> {
    return (await this.client.imageStatus(ref, { timeoutMs: 30_000, ...(signal ? { signal } : {}) }))?.id;
  }

  async pull(ref: string, req: PullRequest): Promise<void> {
    const sandboxConfig = {
      labels: { ...req.sandboxConfig?.labels },
      annotations: { ...req.sandboxConfig?.annotations, [PULLING_IMAGE_BY_ANNOTATION]: 'kruise-daemon' },
    };
    const deadline = Date.now() + req.timeoutMs;
    const errors: Error[] = [];
    for (const auth of req.auths) {
      try {
        await this.client.pullImage(ref, {
          auth,
          sandboxConfig,
          timeoutMs: deadline - Date.now(),
          signal: req.signal,
        });
        return;
      } catch (err) {
        if (req.signal.aborted) throw err;
        errors.push(err as Error);
      }
    }
    if (errors.length > 0) throw new AggregateError(errors, errors.map((e) => e.message).join(', '));
    await this.client.pullImage(ref, { sandboxConfig, timeoutMs: deadline - Date.now(), signal: req.signal });
  }
}
