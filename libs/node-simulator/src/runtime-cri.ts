// A simulated pod's containers as a CRI RuntimeService lists them (libs/cri runtime-messages.ts): the current
// instance of each container and the one before it (exited), labelled as a kubelet labels what it creates
// (kubernetes pkg/kubelet/types/labels.go), ids without the `containerd://` prefix the pod status carries. Pure.
import {
  KUBERNETES_CONTAINER_NAME_LABEL,
  KUBERNETES_POD_NAME_LABEL,
  KUBERNETES_POD_NAMESPACE_LABEL,
  KUBERNETES_POD_UID_LABEL,
  type ContainerFilter,
  type ContainerState,
  type ContainerStatus,
} from '@regatta/cri';
import type { ContainerRuntime, PodRuntime } from './runtime-state.js';
import type { Pod } from './types.js';

/** The runtime's id of a container (`containerd://abc` → `abc`). */
export const criContainerId = (containerID: string) => containerID.slice(containerID.indexOf('://') + 3);

const ns = (ms: number | null | undefined) => (ms ? Math.round(ms * 1_000_000) : 0);

function instances(pod: Pod, c: ContainerRuntime): ContainerStatus[] {
  const labels = {
    [KUBERNETES_POD_NAME_LABEL]: pod.metadata.name ?? '',
    [KUBERNETES_POD_NAMESPACE_LABEL]: pod.metadata.namespace ?? '',
    [KUBERNETES_POD_UID_LABEL]: pod.metadata.uid ?? '',
    [KUBERNETES_CONTAINER_NAME_LABEL]: c.name,
  };
  const base = {
    labels,
    annotations: {},
    image: { image: c.image },
    imageRef: c.imageID,
    reason: '',
    message: '',
  };
  const out: ContainerStatus[] = [];
  const last = c.lastTerminated;
  if (last && last.containerID && last.containerID !== c.containerID) {
    out.push({
      ...base,
      id: criContainerId(last.containerID),
      metadata: { name: c.name, attempt: Math.max(0, c.restartCount - 1) },
      state: 'CONTAINER_EXITED',
      createdAt: ns(last.startedAt),
      startedAt: ns(last.startedAt),
      finishedAt: ns(last.finishedAt),
      exitCode: last.exitCode,
      reason: last.reason,
    });
  }
  if (!c.containerID) return out;
  const s = c.state;
  const current: ContainerStatus = {
    ...base,
    id: criContainerId(c.containerID),
    metadata: { name: c.name, attempt: c.restartCount },
    state: 'CONTAINER_EXITED',
    createdAt: 0,
    startedAt: 0,
    finishedAt: 0,
    exitCode: 0,
  };
  if (s.kind === 'running') {
    Object.assign(current, {
      state: 'CONTAINER_RUNNING',
      createdAt: ns(s.startedAt),
      startedAt: ns(s.startedAt),
    });
  } else if (s.kind === 'terminated') {
    Object.assign(current, {
      createdAt: ns(s.t.startedAt),
      startedAt: ns(s.t.startedAt),
      finishedAt: ns(s.t.finishedAt),
      exitCode: s.t.exitCode,
      reason: s.t.reason,
    });
  } else if (last && last.containerID === c.containerID) {
    // stopped, its next instance not created yet (back-off, pulling)
    Object.assign(current, {
      createdAt: ns(last.startedAt),
      startedAt: ns(last.startedAt),
      finishedAt: ns(last.finishedAt),
      exitCode: last.exitCode,
      reason: last.reason,
    });
  } else {
    return out;
  }
  out.push(current);
  return out;
}

/** Every container instance of the pod the runtime knows, oldest first. */
export function criContainersOfPod(pod: Pod, rt: PodRuntime): ContainerStatus[] {
  return [...rt.initContainers, ...rt.containers].flatMap((c) => instances(pod, c));
}

/** Whether a container passes a ListContainers filter (id, state, label selector; sandbox ids are pod UIDs here). */
export function matchesFilter(c: ContainerStatus, f: ContainerFilter | undefined): boolean {
  if (!f) return true;
  if (f.id && c.id !== f.id) return false;
  if (f.state && c.state !== f.state.state) return false;
  if (f.podSandboxId && c.labels[KUBERNETES_POD_UID_LABEL] !== f.podSandboxId) return false;
  for (const [k, v] of Object.entries(f.labelSelector ?? {})) if (c.labels[k] !== v) return false;
  return true;
}

/** A ContainerStatus as ListContainers describes it. */
export function criContainer(c: ContainerStatus): import('@regatta/cri').Container {
  return {
    id: c.id,
    podSandboxId: c.labels[KUBERNETES_POD_UID_LABEL] ?? '',
    ...(c.metadata ? { metadata: c.metadata } : {}),
    ...(c.image ? { image: c.image } : {}),
    imageRef: c.imageRef,
    state: c.state as ContainerState,
    createdAt: c.createdAt,
    labels: c.labels,
    annotations: c.annotations,
  };
}

/** The container (by name) running as `id` in the runtime, if it is still running. */
export function runningContainerById(rt: PodRuntime, id: string): ContainerRuntime | undefined {
  return [...rt.initContainers, ...rt.containers].find(
    (c) => c.containerID && criContainerId(c.containerID) === id && c.state.kind === 'running',
  );
}
