// A pod's containers as the node's CRI runtime shows them (what kruise-daemon's `GetPodStatus` reads,
// `pkg/daemon/kuberuntime`): the newest instance of each container of the pod, by the labels a kubelet puts on them.
import {
  KUBERNETES_CONTAINER_NAME_LABEL,
  KUBERNETES_POD_UID_LABEL,
  type Container,
  type ContainerState,
  type ContainerStatus,
} from '@regatta/cri';
import type { RuntimeContainer } from './daemon.js';
import type { PreStopCri } from './pre-stop.js';

/**
 * The CRI calls the recreate duty makes (libs/cri CriRuntimeClient), with those of the preStop hook it runs first
 * (pre-stop.ts `PreStopCri`: ExecSync, PodSandboxStatus; a runtime without them plays hooks in its own stop).
 */
export interface CriRuntime extends PreStopCri {
  listContainers(o?: {
    filter?: { labelSelector?: Record<string, string> };
    timeoutMs?: number;
  }): Promise<Container[]>;
  containerStatus(id: string, o?: { timeoutMs?: number }): Promise<ContainerStatus>;
  stopContainer(id: string, timeoutSeconds: number, o?: { timeoutMs?: number }): Promise<void>;
}

/** The kubelet's restart-count annotation on a container (kubernetes pkg/kubelet/kuberuntime/labels.go). */
const RESTART_COUNT_ANNOTATION = 'io.kubernetes.container.restartCount';

const stateOf = (s: ContainerState | string): RuntimeContainer['state'] =>
  s === 'CONTAINER_RUNNING'
    ? 'running'
    : s === 'CONTAINER_EXITED'
      ? 'exited'
      : s === 'CONTAINER_CREATED'
        ? 'created'
        : 'unknown';

/** The newest instance of each named container among `list` (by creation time). Pure. */
export function newestByName(list: readonly Container[]): Container[] {
  const by = new Map<string, Container>();
  for (const c of list) {
    const name = c.labels?.[KUBERNETES_CONTAINER_NAME_LABEL] ?? c.metadata?.name ?? '';
    const had = by.get(name);
    if (!had || Number(c.createdAt) >= Number(had.createdAt)) by.set(name, c);
  }
  return [...by.values()];
}

/** One container's view from its status. Pure. */
export function runtimeContainerOf(c: Container, s: ContainerStatus): RuntimeContainer {
  const annotated = Number(
    s.annotations?.[RESTART_COUNT_ANNOTATION] ?? c.annotations?.[RESTART_COUNT_ANNOTATION],
  );
  return {
    name: c.labels?.[KUBERNETES_CONTAINER_NAME_LABEL] ?? c.metadata?.name ?? '',
    id: c.id,
    state: stateOf(s.state),
    restartCount: Number.isFinite(annotated) ? annotated : (s.metadata?.attempt ?? c.metadata?.attempt ?? 0),
    startedAt: Number(s.startedAt) > 0 ? Math.floor(Number(s.startedAt) / 1_000_000) : 0,
    ...(c.podSandboxId ? { podSandboxId: c.podSandboxId } : {}),
  };
}

/** The pod's containers on this node, through CRI. */
export async function podContainers(
  cri: CriRuntime,
  podUid: string,
  timeoutMs = 10_000,
): Promise<RuntimeContainer[]> {
  const list = await cri.listContainers({
    filter: { labelSelector: { [KUBERNETES_POD_UID_LABEL]: podUid } },
    timeoutMs,
  });
  return Promise.all(
    newestByName(list).map(async (c) =>
      runtimeContainerOf(c, await cri.containerStatus(c.id, { timeoutMs })),
    ),
  );
}
