/**
 * Whether the kubelet has actuated the resize of injected sidecars (docs/adr/0087-in-place-resource-resize.md): the
 * part of a pod's consistency with its SidecarSet that a resize adds (./pod-state.ts `isPodStateConsistent`).
 */
import {
  type ContainerResources,
  POD_RESIZE_IN_PROGRESS,
  RESIZABLE_RESOURCES,
  readContainerResources,
  resizePending,
} from '@regatta/inplace-update';
import { compareQuantities } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';

function sameQuantities(want: Record<string, string> | undefined, have: Record<string, string> | undefined) {
  for (const [r, q] of Object.entries(want ?? {})) {
    if (!RESIZABLE_RESOURCES.has(r)) continue;
    const h = have?.[r];
    if (h === undefined) return false;
    try {
      if (compareQuantities(q, h) !== 0) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/**
 * Has the kubelet actuated the resize of `containers` (as libs/inplace-update `checkResizeActuated`, for these
 * containers only)? No `PodResizePending` / `PodResizeInProgress` condition, and each reports in `status.resources`
 * the cpu/memory requests and limits its spec asks for.
 */
export function isSidecarResizeActuated(pod: Pod, containers: readonly string[]): boolean {
  if (containers.length === 0) return true;
  if (resizePending(pod)) return false;
  if ((pod.status?.conditions ?? []).some((c) => c.type === POD_RESIZE_IN_PROGRESS && c.status === 'True'))
    return false;
  for (const name of containers) {
    const spec = pod.spec?.containers?.find((c) => c.name === name);
    if (!spec) continue;
    const status = pod.status?.containerStatuses?.find((s) => s.name === name) as
      | { resources?: ContainerResources }
      | undefined;
    const have = readContainerResources(status?.resources);
    const want = readContainerResources(spec.resources);
    if (!sameQuantities(want.limits, have.limits) || !sameQuantities(want.requests, have.requests))
      return false;
  }
  return true;
}
