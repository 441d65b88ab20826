// The part of the CRI `runtime.v1.RuntimeService` (`k8s.io/cri-api`, `pkg/apis/runtime/v1/api.proto`) a node agent
// needs to recreate containers as kruise-daemon does (`pkg/daemon/kuberuntime`, `pkg/daemon/containerrecreate`):
// ListContainers, ContainerStatus and StopContainer; ExecSync for the container meta duty (`env` in a container, as
// `pkg/daemon/containermeta` does) and exec preStop hooks; PodSandboxStatus for the pod's IP (httpGet preStop hooks). Upstream names and field numbers; it is parsed into the same
// root as the ImageService text (api-proto.ts) and uses its `ImageSpec`. Fields left out are skipped on the wire.
export const CRI_RUNTIME_PROTO = `
syntax = "proto3";
package runtime.v1;

service RuntimeService {
  rpc StopContainer(StopContainerRequest) returns (StopContainerResponse) {}
  rpc ListContainers(ListContainersRequest) returns (ListContainersResponse) {}
  rpc ContainerStatus(ContainerStatusRequest) returns (ContainerStatusResponse) {}
  rpc ExecSync(ExecSyncRequest) returns (ExecSyncResponse) {}
  rpc PodSandboxStatus(PodSandboxStatusRequest) returns (PodSandboxStatusResponse) {}
}

enum ContainerState {
  CONTAINER_CREATED = 0;
  CONTAINER_RUNNING = 1;
  CONTAINER_EXITED = 2;
  CONTAINER_UNKNOWN = 3;
}

message ContainerMetadata {
  string name = 1;
  uint32 attempt = 2;
}

message ContainerStateValue {
  ContainerState state = 1;
}

message ContainerFilter {
  string id = 1;
  ContainerStateValue state = 2;
  string pod_sandbox_id = 3;
  map<string, string> label_selector = 4;
}

message Container {
  string id = 1;
  string pod_sandbox_id = 2;
  ContainerMetadata metadata = 3;
  ImageSpec image = 4;
  string image_ref = 5;
  ContainerState state = 6;
  int64 created_at = 7;
  map<string, string> labels = 8;
  map<string, string> annotations = 9;
  string image_id = 10;
}

message ListContainersRequest {
  ContainerFilter filter = 1;
}

message ListContainersResponse {
  repeated Container containers = 1;
}

message ContainerStatusRequest {
  string container_id = 1;
  bool verbose = 2;
}

message ContainerStatus {
  string id = 1;
  ContainerMetadata metadata = 2;
  ContainerState state = 3;
  int64 created_at = 4;
  int64 started_at = 5;
  int64 finished_at = 6;
  int32 exit_code = 7;
  ImageSpec image = 8;
  string image_ref = 9;
  string reason = 10;
  string message = 11;
  map<string, string> labels = 12;
  map<string, string> annotations = 13;
  string log_path = 15;
  string image_id = 17;
}

message ContainerStatusResponse {
  ContainerStatus status = 1;
  map<string, string> info = 2;
}

message StopContainerRequest {
  string container_id = 1;
  int64 timeout = 2;
}

message StopContainerResponse {}

message ExecSyncRequest {
  string container_id = 1;
  repeated string cmd = 2;
  int64 timeout = 3;
}

message PodSandboxStatusRequest {
  string pod_sandbox_id = 1;
  bool verbose = 2;
}

message PodIP {
  string ip = 1;
}

message PodSandboxNetworkStatus {
  string ip = 1;
  repeated PodIP additional_ips = 2;
}

message PodSandboxStatus {
  string id = 1;
  int64 created_at = 4;
  PodSandboxNetworkStatus network = 5;
}

message PodSandboxStatusResponse {
  PodSandboxStatus status = 1;
}

message ExecSyncResponse {
  bytes stdout = 1;
  bytes stderr = 2;
  int32 exit_code = 3;
}
`;
