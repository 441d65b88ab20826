// The messages of the ImageService subset (api-proto.ts) as this library hands them over: camelCase field names,
// 64-bit integers as numbers, absent messages as undefined, as @grpc/proto-loader decodes them with the options of
// service.ts.

export interface ImageSpec {
  image: string;
  annotations?: Record<string, string>;
  userSpecifiedImage?: string;
  runtimeHandler?: string;
  imageRef?: string;
}

/** Registry credentials for one pull (a `kubernetes.io/dockerconfigjson` entry, decoded). */
export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  serverAddress?: string;
  identityToken?: string;
  registryToken?: string;
}

export interface PodSandboxConfig {
  metadata?: { name?: string; uid?: string; namespace?: string; attempt?: number };
  hostname?: string;
  logDirectory?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  uid?: { value: number };
  username?: string;
  spec?: ImageSpec;
  pinned?: boolean;
}

export interface PullImageRequest {
  image: ImageSpec;
  auth?: AuthConfig;
  sandboxConfig?: PodSandboxConfig;
}

export interface PullImageResponse {
  imageRef: string;
}

export interface ImageStatusRequest {
  image: ImageSpec;
  verbose?: boolean;
}

export interface ImageStatusResponse {
  /** Absent when the image is not present. */
  image?: Image;
  info?: Record<string, string>;
}

export interface ListImagesRequest {
  filter?: { image?: ImageSpec };
}

export interface ListImagesResponse {
  images: Image[];
}

export interface RemoveImageRequest {
  image: ImageSpec;
}

export interface FilesystemUsage {
  timestamp: number;
  fsId?: { mountpoint: string };
  usedBytes?: { value: number };
  inodesUsed?: { value: number };
}

export interface ImageFsInfoResponse {
  imageFilesystems: FilesystemUsage[];
  containerFilesystems: FilesystemUsage[];
}
