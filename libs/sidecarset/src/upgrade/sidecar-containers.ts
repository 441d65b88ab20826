/**
 * Where a SidecarSet's sidecars live in a pod: its `containers` in `spec.containers`, its native sidecars (init
 * containers with `restartPolicy: Always`, upstream `sidecarcontrol.IsSidecarContainer`) in `spec.initContainers`,
 * their statuses in `containerStatuses` and `initContainerStatuses`. The upgrade treats both alike: an image change
 * of either is applied in place (docs/adr/0090-native-sidecar-in-place-upgrade.md; upstream refuses `RollingUpdate`
 * for a SidecarSet with a native sidecar, `pkg/webhook/sidecarset/validating`).
 */
import type { ContainerStatus, Pod } from '@regatta/lifecycle';
import type { SidecarContainerView, SidecarSetView } from './types.js';

type PodContainer = NonNullable<NonNullable<Pod['spec']>['containers']>[number];

/** An init container with `restartPolicy: Always` (a Kubernetes native sidecar). */
export const isNativeSidecarView = (c: { restartPolicy?: unknown }): boolean => c.restartPolicy === 'Always';

const NONE: readonly SidecarContainerView[] = [];
/** Per SidecarSet spec (a cached SidecarSet's, replaced whole when it changes): computed once, not per pod. */
const bySpec = new WeakMap<object, readonly SidecarContainerView[]>();

/** The sidecars the SidecarSet upgrades: its containers, then its native-sidecar init containers. Shared. */
export function sidecarsOf(set: SidecarSetView): readonly SidecarContainerView[] {
  const spec = set.spec;
  if (!spec) return NONE;
  const known = bySpec.get(spec);
  if (known) return known;
  const inits = spec.initContainers ?? NONE;
  const out = inits.some(isNativeSidecarView)
    ? [...(spec.containers ?? NONE), ...inits.filter(isNativeSidecarView)]
    : (spec.containers ?? NONE);
  bySpec.set(spec, out);
  return out;
}

/** Whether the SidecarSet has a native sidecar. */
export const hasNativeSidecar = (set: SidecarSetView): boolean =>
  (set.spec?.initContainers ?? NONE).some(isNativeSidecarView);

/** The pod's container of that name: a container, else a native-sidecar init container. */
export function podContainer(pod: Pod, name: string): PodContainer | undefined {
  for (const c of pod.spec?.containers ?? []) if (c.name === name) return c;
  for (const c of pod.spec?.initContainers ?? []) if (c.name === name && isNativeSidecarView(c)) return c;
  return undefined;
}

/** The status of the pod's container (or native-sidecar init container) of that name. */
export function sidecarStatus(pod: Pod, name: string): ContainerStatus | undefined {
  for (const s of pod.status?.containerStatuses ?? []) if (s.name === name) return s;
  if (!pod.spec?.initContainers?.some((c) => c.name === name && isNativeSidecarView(c))) return undefined;
  for (const s of pod.status?.initContainerStatuses ?? []) if (s.name === name) return s;
  return undefined;
}

/** The pod's containers and its native-sidecar init containers (plain init containers, which ran once, left out). */
export function podRunningContainers(pod: Pod): PodContainer[] {
  const inits = pod.spec?.initContainers;
  const containers = pod.spec?.containers ?? [];
  return inits?.some(isNativeSidecarView)
    ? [...containers, ...inits.filter(isNativeSidecarView)]
    : containers;
}

/** Statuses of {@link podRunningContainers}. */
export function podRunningStatuses(pod: Pod): ContainerStatus[] {
  const statuses = pod.status?.containerStatuses ?? [];
  const natives = (pod.spec?.initContainers ?? []).filter(isNativeSidecarView);
  if (natives.length === 0) return statuses;
  const names = new Set(natives.map((c) => c.name));
  return [...statuses, ...(pod.status?.initContainerStatuses ?? []).filter((s) => names.has(s.name))];
}
