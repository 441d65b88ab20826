/**
 * Whether the kubelet has actuated the resize of injected sidecars (docs/adr/0087-in-place-resource-resize.md): the
 * part of a pod's consistency with its SidecarSet that a resize adds (./pod-state.ts `isPodStateConsistent`).
 */
import { checkResizeActuated } from '@regatta/inplace-update';
import type { Pod } from '@regatta/lifecycle';

/**
 * Has the kubelet actuated the resize of `containers` (libs/inplace-update `checkResizeActuated` for these containers
 * only)? No `PodResizePending` / `PodResizeInProgress` condition, and each reports in `status.resources` the cpu/memory
 * requests and limits its spec asks for.
 */
export function isSidecarResizeActuated(pod: Pod, containers: readonly string[]): boolean {
  return containers.length === 0 || checkResizeActuated(pod, containers).completed;
}
