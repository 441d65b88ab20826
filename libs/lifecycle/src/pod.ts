/**
 * Readers of a pod shared by the workload libraries (`@regatta/lifecycle`, `@regatta/inplace-update`,
 * `@regatta/rollout`). The Pod type itself is `@regatta/api`'s, the one pod type of the repository; it is
 * re-exported here for the libraries that read pods through this one.
 */
import type { ContainerStatus, Pod, PodCondition } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';

export type {
  Container,
  ContainerStatus,
  EnvVar,
  EnvVarSource,
  Pod,
  PodCondition,
  PodReadinessGate,
  PodSpec,
  PodStatus,
} from '@regatta/api';

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
