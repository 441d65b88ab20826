// The parts of Kubernetes objects the simulator reads and writes, as plain JSON (what the API server sends,
// timestamps as RFC 3339 strings). Every field is optional where the API allows it to be absent, so that
// no pod shape the API server accepts can make the simulator crash.

import type { Pod as ApiPod } from '@regatta/api';
import type { KubeObject, ObjectMeta } from '@regatta/kube';

// object metadata is @regatta/kube's, as for every other part of Regatta
export type { KubeList, ObjectMeta, OwnerReference } from '@regatta/kube';

// Pods are @regatta/api's one Pod type (libs/api/src/core/pod-types.ts), read here with the metadata the API
// server always sends.
export type {
  Container,
  ContainerState,
  ContainerStatus,
  EnvVar,
  EnvVarSource,
  LifecycleHandler,
  PodCondition,
  PodStatus,
} from '@regatta/api';

/** A pod as the simulator reads it: metadata is always present on what the API server sends. */
export type Pod = ApiPod & { metadata: ObjectMeta };

/** The pod spec the simulator reads: the API server always fills `containers`, a fixture may not. */
export type PodSpec = NonNullable<ApiPod['spec']>;

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
