export { CRI_IMAGE_PROTO } from './api-proto.js';
export { CRI_RUNTIME_PROTO } from './runtime-proto.js';
export { CriImageClient, type CallOptions } from './client.js';
export { CriRuntimeClient } from './runtime-client.js';
export { CriCallError, CriStatusError } from './errors.js';
export type {
  AuthConfig,
  FilesystemUsage,
  Image,
  ImageFsInfoResponse,
  ImageSpec,
  ImageStatusRequest,
  ImageStatusResponse,
  ListImagesRequest,
  ListImagesResponse,
  PodSandboxConfig,
  PullImageRequest,
  PullImageResponse,
  RemoveImageRequest,
} from './messages.js';
export {
  KUBERNETES_CONTAINER_NAME_LABEL,
  KUBERNETES_POD_NAME_LABEL,
  KUBERNETES_POD_NAMESPACE_LABEL,
  KUBERNETES_POD_UID_LABEL,
  type Container,
  type ContainerFilter,
  type ContainerMetadata,
  type ContainerState,
  type ContainerStatus,
  type ContainerStatusRequest,
  type ExecSyncRequest,
  type ExecSyncResponse,
  type ListContainersRequest,
  type StopContainerRequest,
} from './runtime-messages.js';
export {
  serveImageService,
  type ImageServiceHandlers,
  type ImageServiceServer,
  type RuntimeServiceHandlers,
} from './server.js';
export { imageServiceDefinition, runtimeServiceDefinition, unixTarget } from './service.js';
export { status as GrpcStatus } from '@grpc/grpc-js';
