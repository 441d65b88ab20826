// The part of the CRI (`k8s.io/cri-api`, `pkg/apis/runtime/v1/api.proto`) that image pre-warming speaks: the
// `runtime.v1.ImageService` calls PullImage, ImageStatus, ListImages, RemoveImage and ImageFsInfo with only the
// messages they carry. Package, service, message and field names and numbers are the upstream ones, so a client of
// this subset talks to containerd or CRI-O and a server of it answers crictl; fields left out are skipped on the
// wire as unknown fields, as protobuf does. Kept as text here so that a bundled program carries it.
export const CRI_IMAGE_PROTO = `
syntax = "proto3";
package runtime.v1;

service ImageService {
  rpc ListImages(ListImagesRequest) returns (ListImagesResponse) {}
  rpc ImageStatus(ImageStatusRequest) returns (ImageStatusResponse) {}
  rpc PullImage(PullImageRequest) returns (PullImageResponse) {}
  rpc RemoveImage(RemoveImageRequest) returns (RemoveImageResponse) {}
  rpc ImageFsInfo(ImageFsInfoRequest) returns (ImageFsInfoResponse) {}
}

message ImageSpec {
  string image = 1;
  map<string, string> annotations = 2;
  string user_specified_image = 18;
  string runtime_handler = 19;
  string image_ref = 20;
}

message AuthConfig {
  string username = 1;
  string password = 2;
  string auth = 3;
  string server_address = 4;
  string identity_token = 5;
  string registry_token = 6;
}

message PodSandboxMetadata {
  string name = 1;
  string uid = 2;
  string namespace = 3;
  uint32 attempt = 4;
}

message PodSandboxConfig {
  PodSandboxMetadata metadata = 1;
  string hostname = 2;
  string log_directory = 3;
  map<string, string> labels = 6;
  map<string, string> annotations = 7;
}

message ImageFilter {
  ImageSpec image = 1;
}

message Int64Value {
  int64 value = 1;
}

message Image {
  string id = 1;
  repeated string repo_tags = 2;
  repeated string repo_digests = 3;
  uint64 size = 4;
  Int64Value uid = 5;
  string username = 6;
  ImageSpec spec = 7;
  bool pinned = 8;
}

message ListImagesRequest {
  ImageFilter filter = 1;
}

message ListImagesResponse {
  repeated Image images = 1;
}

message ImageStatusRequest {
  ImageSpec image = 1;
  bool verbose = 2;
}

message ImageStatusResponse {
  Image image = 1;
  map<string, string> info = 2;
}

message PullImageRequest {
  ImageSpec image = 1;
  AuthConfig auth = 2;
  PodSandboxConfig sandbox_config = 3;
}

message PullImageResponse {
  string image_ref = 1;
}

message RemoveImageRequest {
  ImageSpec image = 1;
}

message RemoveImageResponse {}

message ImageFsInfoRequest {}

message UInt64Value {
  uint64 value = 1;
}

message FilesystemIdentifier {
  string mountpoint = 1;
}

message FilesystemUsage {
  int64 timestamp = 1;
  FilesystemIdentifier fs_id = 2;
  UInt64Value used_bytes = 3;
  UInt64Value inodes_used = 4;
}

message ImageFsInfoResponse {
  repeated FilesystemUsage image_filesystems = 1;
  repeated FilesystemUsage container_filesystems = 2;
}
`;
