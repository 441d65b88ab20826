// The messages of the RuntimeService subset (runtime-proto.ts) as this library hands them over: camelCase fields,
// 64-bit integers as numbers (nanoseconds for times, as the CRI carries them), enums by name.
import type { ImageSpec } from './messages.js';

export type ContainerState =
  | 'CONTAINER_CREATED'
  | 'CONTAINER_RUNNING'
  | 'CONTAINER_EXITED'
  | 'CONTAINER_UNKNOWN';

/** The labels a kubelet puts on every container it creates (kubernetes pkg/kubelet/types/labels.go). */
export const KUBERNETES_POD_NAME_LABEL = 'io.kubernetes.pod.name';
export const KUBERNETES_POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';
export const KUBERNETES_POD_UID_LABEL = 'io.kubernetes.pod.uid';
export const KUBERNETES_CONTAINER_NAME_LABEL = 'io.kubernetes.container.name';

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface ContainerFilter {
  id?: string;
  state?: { state: ContainerState };
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}

export interface Container {
  id: string;
  podSandboxId: string;
  metadata?: ContainerMetadata;
  image?: ImageSpec;
  imageRef: string;
  state: ContainerState;
  /** Nanoseconds since the epoch. */
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  imageId?: string;
}

export interface ContainerStatus {
  id: string;
  metadata?: ContainerMetadata;
  state: ContainerState;
  /** Nanoseconds since the epoch (0: not yet). */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  image?: ImageSpec;
  imageRef: string;
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath?: string;
  imageId?: string;
}

export interface ListContainersRequest {
  filter?: ContainerFilter;
}

export interface ContainerStatusRequest {
  containerId: string;
  verbose?: boolean;
}

export interface StopContainerRequest {
  containerId: string;
  /** Seconds to wait after SIGTERM before SIGKILL (0: at once). */
  timeout: number;
}

export interface ExecSyncRequest {
  containerId: string;
  cmd: string[];
  /** Seconds the command may run (0: no limit). */
  timeout: number;
}

export interface ExecSyncResponse {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}
