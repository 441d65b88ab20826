export { CRI_IMAGE_PROTO } from './api-proto.js';
export { CriImageClient, type CallOptions } from './client.js';
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
export { serveImageService, type ImageServiceHandlers, type ImageServiceServer } from './server.js';
export { imageServiceDefinition, unixTarget } from './service.js';
export { status as GrpcStatus } from '@grpc/grpc-js';
