// The parts of Kubernetes objects the simulator reads and writes, as plain JSON (what the API server sends,
// timestamps as RFC 3339 strings). Every field is optional where the API allows it to be absent, so that
// no pod shape the API server accepts can make the simulator crash.

import type { KubeObject, ObjectMeta } from '@regatta/kube';

// object metadata is @regatta/kube's, as for every other part of Regatta
export type { KubeList, ObjectMeta, OwnerReference } from '@regatta/kube';

/** core/v1 EnvVarSource; `fieldRef` (downward API) is read here, `configMapKeyRef` in config-env.ts. */
export interface EnvVarSource {
  fieldRef?: { apiVersion?: string; fieldPath: string } | null;
  [key: string]: unknown;
}

/** core/v1 EnvVar. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource | null;
}

/** core/v1 LifecycleHandler: only `exec` and `sleep` take time here (http and tcp hooks return at once). */
export interface LifecycleHandler {
  exec?: { command?: string[] | null } | null;
  sleep?: { seconds: number } | null;
  [key: string]: unknown;
}

export interface Container {
  name: string;
  image?: string;
  command?: string[] | null;
  args?: string[] | null;
  lifecycle?: { postStart?: LifecycleHandler | null; preStop?: LifecycleHandler | null } | null;
  imagePullPolicy?: string;
  restartPolicy?: string;
  env?: EnvVar[] | null;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export interface PodSpec {
  nodeName?: string;
  hostNetwork?: boolean;
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  initContainers?: Container[];
  containers?: Container[];
  readinessGates?: { conditionType: string }[];
  imagePullSecrets?: { name?: string }[];
}

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

export interface ContainerStateWaiting {
  reason?: string;
  message?: string;
}
export interface ContainerStateRunning {
  startedAt?: string;
}
export interface ContainerStateTerminated {
  exitCode: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting | null;
  running?: ContainerStateRunning | null;
  terminated?: ContainerStateTerminated | null;
}

export interface ContainerStatus {
  name: string;
  state?: ContainerState;
  lastState?: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: ContainerStatus[];
  containerStatuses?: ContainerStatus[];
  qosClass?: string;
  observedGeneration?: number;
}

/** A pod as the simulator reads it: metadata is always present on what the API server sends. */
export interface Pod extends KubeObject {
  metadata: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export interface NodeCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
}

export interface NodeImage {
  names: string[];
  sizeBytes: number;
}

export interface NodeStatus {
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  conditions?: NodeCondition[];
  addresses?: { type: string; address: string }[];
  daemonEndpoints?: { kubeletEndpoint: { Port: number } };
  nodeInfo?: Record<string, string>;
  images?: NodeImage[];
}

export interface Node extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    podCIDR?: string;
    podCIDRs?: string[];
    providerID?: string;
    taints?: Taint[];
    unschedulable?: boolean;
  };
  status?: NodeStatus;
}

export interface PersistentVolumeClaim extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    storageClassName?: string;
    volumeName?: string;
    accessModes?: string[];
    volumeMode?: string;
    resources?: { requests?: Record<string, string> };
  };
  status?: {
    phase?: string;
    capacity?: Record<string, string>;
    conditions?: { type: string; status: string }[];
  };
}

export interface StorageClass {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  provisioner?: string;
  allowVolumeExpansion?: boolean;
}

export interface PersistentVolume extends KubeObject {
  metadata: ObjectMeta;
  spec?: {
    capacity?: Record<string, string>;
    accessModes?: string[];
    volumeMode?: string;
    storageClassName?: string;
    persistentVolumeReclaimPolicy?: string;
    hostPath?: { path: string; type?: string };
    claimRef?: { apiVersion?: string; kind?: string; namespace?: string; name?: string; uid?: string };
  };
  status?: { phase?: string };
}
