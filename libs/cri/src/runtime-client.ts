// A client of a CRI RuntimeService on a unix socket (the subset of runtime-proto.ts): what kruise-daemon's
// `pkg/daemon/kuberuntime` does with containerd to find a pod's containers and stop one, as promises.
import * as grpc from '@grpc/grpc-js';
import type { CallOptions } from './client.js';
import { unaryCall } from './client.js';
import type { Container, ContainerFilter, ContainerStatus, ExecSyncResponse } from './runtime-messages.js';
import { runtimeServiceDefinition, unixTarget } from './service.js';

const RuntimeServiceClient = grpc.makeClientConstructor(
  runtimeServiceDefinition(),
  'runtime.v1.RuntimeService',
);

export class CriRuntimeClient {
  private readonly client: grpc.Client;

  /** `socketPath`: the runtime's socket (`/run/containerd/containerd.sock`, or a `unix://` target). */
  constructor(readonly socketPath: string) {
    this.client = new RuntimeServiceClient(unixTarget(socketPath), grpc.credentials.createInsecure());
  }

  async listContainers(o: CallOptions & { filter?: ContainerFilter } = {}): Promise<Container[]> {
    const req = o.filter ? { filter: o.filter } : {};
    return (
      await unaryCall<{ containers: Container[] }>(this.client, 'ListContainers', 'listContainers', req, o)
    ).containers;
  }

  async containerStatus(containerId: string, o: CallOptions = {}): Promise<ContainerStatus> {
    const res = await unaryCall<{ status: ContainerStatus }>(
      this.client,
      'ContainerStatus',
      'containerStatus',
      { containerId },
      o,
    );
    return res.status;
  }

  /** Stops the container: SIGTERM, SIGKILL after `timeoutSeconds`. Give the call a deadline longer than that. */
  async stopContainer(containerId: string, timeoutSeconds: number, o: CallOptions = {}): Promise<void> {
    await unaryCall(
      this.client,
      'StopContainer',
      'stopContainer',
      { containerId, timeout: timeoutSeconds },
      o,
    );
  }

  /** Runs `cmd` in the container and returns its output (`timeoutSeconds`: the runtime ends it after that). */
  async execSync(
    containerId: string,
    cmd: string[],
    timeoutSeconds: number,
    o: CallOptions = {},
  ): Promise<ExecSyncResponse> {
    return unaryCall<ExecSyncResponse>(
      this.client,
      'ExecSync',
      'execSync',
      { containerId, cmd, timeout: timeoutSeconds },
      o,
    );
  }

  /** The pod's IP as its sandbox has it ('' when it has none, e.g. host network). */
  async podSandboxIP(podSandboxId: string, o: CallOptions = {}): Promise<string> {
    const res = await unaryCall<{ status?: { network?: { ip?: string } } }>(
      this.client,
      'PodSandboxStatus',
      'podSandboxStatus',
      { podSandboxId },
      o,
    );
    return res.status?.network?.ip ?? '';
  }

  close(): void {
    this.client.close();
  }
}
