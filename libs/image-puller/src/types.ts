// The parts of a NodeImage (apps.kruise.io v1alpha1 and v1beta1 have the same fields here) that the image puller
// reads and writes. Structural, so the API library's NodeImage type fits where these are asked for.

export type ImagePullPhase = 'Waiting' | 'Pulling' | 'Succeeded' | 'Failed';

export interface TagPullPolicy {
  timeoutSeconds?: number;
  backoffLimit?: number;
  ttlSecondsAfterFinished?: number;
  activeDeadlineSeconds?: number;
}

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
}

export interface ImageTagSpec {
  tag: string;
  createdAt?: string;
  pullPolicy?: TagPullPolicy;
  ownerReferences?: ObjectReference[];
  version?: number;
  /** `Always` or `IfNotPresent`; anything else (also empty) pulls. */
  imagePullPolicy?: string;
}

export interface ReferenceObject {
  namespace?: string;
  name?: string;
  mode?: string;
}

export interface SandboxConfig {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface ImageSpec {
  pullSecrets?: ReferenceObject[];
  tags: ImageTagSpec[];
  sandboxConfig?: SandboxConfig;
}

export interface ImageTagStatus {
  tag: string;
  phase: ImagePullPhase;
  progress?: number;
  startTime?: string;
  completionTime?: string;
  version?: number;
  imageID?: string;
  message?: string;
}

export interface ImageStatus {
  tags: ImageTagStatus[];
}

export interface NodeImageStatus {
  desired: number;
  pulling?: number;
  waiting?: number;
  succeeded?: number;
  failed?: number;
  imageStatuses?: Record<string, ImageStatus>;
  firstSyncStatus?: unknown;
}

export interface NodeImage {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name?: string;
    uid?: string;
    resourceVersion?: string;
    generation?: number;
    deletionTimestamp?: string;
    labels?: Record<string, string>;
  };
  spec?: { images?: Record<string, ImageSpec> };
  status?: NodeImageStatus;
}

/** `<name>:<tag>` as OpenKruise names a pull. */
export const imageRef = (name: string, tag: string): string => `${name}:${tag}`;
