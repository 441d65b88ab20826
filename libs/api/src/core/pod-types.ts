/**
 * The parts of core/v1 Pod, PodTemplateSpec and PersistentVolumeClaim that Regatta reads or defaults. The CRDs keep these
 * objects whole (`x-kubernetes-preserve-unknown-fields`), so every interface is open: fields not listed here are
 * carried along untouched. `Pod` is the one pod type of the repository: the workload libraries, the scenario
 * harness and the tools read pods through it.
 */
import type { KubeObject, ObjectMeta } from '@regatta/kube';

/** Metadata of an embedded template (pod template, claim template). */
export interface TemplateMeta {
  name?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  [key: string]: unknown;
}

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: 'TCP' | 'UDP' | 'SCTP' | (string & {});
  [key: string]: unknown;
}

export interface ObjectFieldSelector {
  apiVersion?: string;
  fieldPath: string;
}

/** core/v1 EnvVarSource (`env[].valueFrom`). Go writes an unset pointer as `null`. */
export interface EnvVarSource {
  fieldRef?: ObjectFieldSelector | null;
  configMapKeyRef?: { name?: string; key: string; optional?: boolean } | null;
  [key: string]: unknown;
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource | null;
}

export interface HttpGetAction {
  path?: string;
  port: number | string;
  host?: string;
  scheme?: 'HTTP' | 'HTTPS' | (string & {});
  [key: string]: unknown;
}

export interface Probe {
  httpGet?: HttpGetAction;
  initialDelaySeconds?: number;
  timeoutSeconds?: number;
  periodSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
  [key: string]: unknown;
}

/** core/v1 LifecycleHandler: one of exec, httpGet, tcpSocket or sleep. */
export interface LifecycleHandler {
  exec?: { command?: string[] | null } | null;
  httpGet?: HttpGetAction;
  sleep?: { seconds: number } | null;
  [key: string]: unknown;
}

export interface VolumeMount {
  name: string;
  mountPath: string;
  [key: string]: unknown;
}

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export interface Container {
  name: string;
  image?: string;
  command?: string[] | null;
  args?: string[] | null;
  imagePullPolicy?: PullPolicy | (string & {});
  ports?: ContainerPort[];
  env?: EnvVar[] | null;
  resources?: { limits?: Record<string, string | number>; requests?: Record<string, string | number>; [key: string]: unknown };
  volumeMounts?: VolumeMount[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { postStart?: LifecycleHandler; preStop?: LifecycleHandler; [key: string]: unknown };
  terminationMessagePath?: string;
  terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError' | (string & {});
  restartPolicy?: string;
  [key: string]: unknown;
}

export interface KeyToPath {
  key?: string;
  path: string;
  fieldRef?: ObjectFieldSelector;
  [key: string]: unknown;
}

export interface Volume {
  name: string;
  emptyDir?: Record<string, unknown>;
  hostPath?: { path: string; type?: string; [key: string]: unknown };
  secret?: { secretName?: string; defaultMode?: number; [key: string]: unknown };
  configMap?: { name?: string; defaultMode?: number; [key: string]: unknown };
  downwardAPI?: { items?: KeyToPath[]; defaultMode?: number; [key: string]: unknown };
  projected?: {
    sources?: {
      downwardAPI?: { items?: KeyToPath[]; [key: string]: unknown };
      serviceAccountToken?: { path: string; expirationSeconds?: number; [key: string]: unknown };
      [key: string]: unknown;
    }[];
    defaultMode?: number;
    [key: string]: unknown;
  };
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  [key: string]: unknown;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  ephemeralContainers?: Container[];
  volumes?: Volume[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never' | (string & {});
  dnsPolicy?: 'ClusterFirst' | 'ClusterFirstWithHostNet' | 'Default' | 'None' | (string & {});
  schedulerName?: string;
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  securityContext?: Record<string, unknown>;
  readinessGates?: PodReadinessGate[] | null;
  nodeSelector?: Record<string, string>;
  nodeName?: string;
  hostNetwork?: boolean;
  [key: string]: unknown;
}

/** core/v1 PodTemplateSpec. */
export interface PodTemplateSpec {
  metadata?: TemplateMeta;
  spec?: PodSpec;
}

/** core/v1 PersistentVolumeClaim as a template (`volumeClaimTemplates[i]`). */
export interface PersistentVolumeClaimTemplate {
  apiVersion?: string;
  kind?: string;
  metadata?: TemplateMeta;
  spec?: {
    accessModes?: string[];
    storageClassName?: string;
    volumeMode?: string;
    resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
    [key: string]: unknown;
  };
  status?: { phase?: string; [key: string]: unknown };
}

/** core/v1 ContainerState: exactly one of the three is set. */
export interface ContainerState {
  waiting?: { reason?: string; message?: string; [key: string]: unknown } | null;
  running?: { startedAt?: string; [key: string]: unknown } | null;
  terminated?: {
    exitCode?: number;
    reason?: string;
    message?: string;
    startedAt?: string | null;
    finishedAt?: string | null;
    containerID?: string;
    [key: string]: unknown;
  } | null;
}

/** core/v1 ContainerStatus. */
export interface ContainerStatus {
  name: string;
  image?: string;
  imageID?: string;
  containerID?: string;
  ready?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: ContainerState;
  [key: string]: unknown;
}

/** core/v1 PodCondition. Go writes a zero time as `null`. */
export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | (string & {});
  reason?: string;
  message?: string;
  lastTransitionTime?: string | null;
  lastProbeTime?: string | null;
}

/** core/v1 PodReadinessGate. */
export interface PodReadinessGate {
  conditionType: string;
}

/** core/v1 PodStatus (open). */
export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown' | (string & {});
  qosClass?: string;
  conditions?: PodCondition[] | null;
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[] | null;
  podIP?: string;
  podIPs?: { ip: string }[] | null;
  startTime?: string | null;
  initContainerStatuses?: ContainerStatus[] | null;
  containerStatuses?: ContainerStatus[] | null;
  observedGeneration?: number;
  [key: string]: unknown;
}

/**
 * core/v1 Pod. Its spec is open to partial objects (a pod built from a template before the API server validates
 * it, a test's fixture); the API server always returns `spec.containers`.
 */
export interface Pod extends KubeObject {
  metadata?: ObjectMeta;
  spec?: Partial<PodSpec>;
  status?: PodStatus;
}
