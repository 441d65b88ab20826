/**
 * The structural Pod shape shared by the workload libraries (`@regatta/lifecycle`, `@regatta/inplace-update`,
 * `@regatta/rollout`): only what they read or write is typed, everything else passes through untouched.
 */
import type { KubeObject, ObjectMeta } from '@regatta/kube';

/** core/v1 ObjectFieldSelector / ConfigMapKeySelector / … as found in `env[].valueFrom`. */
export interface EnvVarSource {
  fieldRef?: { apiVersion?: string; fieldPath: string } | null;
  configMapKeyRef?: { name?: string; key: string; optional?: boolean } | null;
  [key: string]: unknown;
}

/** core/v1 EnvVar. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: EnvVarSource | null;
}

/** core/v1 Container (the fields the in-place engine reads). */
export interface Container {
  name: string;
  image?: string;
  env?: EnvVar[] | null;
  resources?: Record<string, unknown>;
  [key: string]: unknown;
}

/** core/v1 ContainerStatus. */
export interface ContainerStatus {
  name: string;
  image?: string;
  imageID?: string;
  containerID?: string;
  ready?: boolean;
  restartCount?: number;
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

/** core/v1 PodSpec (open). */
export interface PodSpec {
  nodeName?: string;
  containers?: Container[];
  readinessGates?: PodReadinessGate[] | null;
  [key: string]: unknown;
}

/** core/v1 PodStatus (open). */
export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown' | (string & {});
  conditions?: PodCondition[] | null;
  containerStatuses?: ContainerStatus[] | null;
  [key: string]: unknown;
}

/** core/v1 Pod. */
export interface Pod extends KubeObject {
  metadata?: ObjectMeta;
  spec?: PodSpec;
  status?: PodStatus;
}

/** core/v1 `PodReady`. */
export const POD_READY = 'Ready';
/** core/v1 `ContainersReady`. */
export const CONTAINERS_READY = 'ContainersReady';

/** The pod's labels (never undefined). */
export function podLabels(pod: KubeObject): Readonly<Record<string, string>> {
  return pod.metadata?.labels ?? {};
}

/** The pod's annotations (never undefined). */
export function podAnnotations(pod: KubeObject): Readonly<Record<string, string>> {
  return pod.metadata?.annotations ?? {};
}

/** The condition of that type in the pod status, if any. */
export function getPodCondition(pod: Pod, type: string): PodCondition | undefined {
  return pod.status?.conditions?.find((c) => c.type === type);
}

/** k8s `podutil.IsPodReady`: the `Ready` condition is `True`. */
export function isPodReady(pod: Pod): boolean {
  return getPodCondition(pod, POD_READY)?.status === 'True';
}

/** True when `spec.readinessGates` lists that condition type. */
export function hasReadinessGate(pod: Pod, conditionType: string): boolean {
  return (pod.spec?.readinessGates ?? []).some((g) => g.conditionType === conditionType);
}

/** The pod with the readiness gate appended if missing; the input is not modified. */
export function withReadinessGate(pod: Pod, conditionType: string): Pod {
  if (hasReadinessGate(pod, conditionType)) return pod;
  return {
    ...pod,
    spec: { ...pod.spec, readinessGates: [...(pod.spec?.readinessGates ?? []), { conditionType }] },
  };
}

/** Kruise `HasPodScheduled`: `spec.nodeName` is set. */
export function isPodScheduled(pod: Pod): boolean {
  return (pod.spec?.nodeName ?? '') !== '';
}

/** k8s `IsPodActive`: not Succeeded/Failed and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** The status of the named container, if reported. */
export function getContainerStatus(pod: Pod, name: string): ContainerStatus | undefined {
  return pod.status?.containerStatuses?.find((c) => c.name === name);
}

/** True when the pod carries that finalizer. */
export function hasFinalizer(pod: KubeObject, finalizer: string): boolean {
  return (pod.metadata?.finalizers ?? []).includes(finalizer);
}
