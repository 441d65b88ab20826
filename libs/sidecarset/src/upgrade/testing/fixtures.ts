/** Pods and SidecarSets for the upgrade unit tests (no defaults applied: only what the logic reads). */
import type { ContainerStatus, Pod } from '@regatta/lifecycle';
import type { MemoryCluster } from '@regatta/workload';
import {
  SIDECARSET_HASH_KEY,
  SIDECARSET_HASH_WITHOUT_IMAGE_KEY,
  SIDECARSET_LIST_KEY,
  WORKING_HOT_UPGRADE_CONTAINER_KEY,
} from '../keys.js';
import type { SidecarSetView } from '../types.js';

export const T0 = new Date('2026-12-03T08:00:00Z');

export function sidecarSet(
  over: Partial<NonNullable<SidecarSetView['spec']>> = {},
  hash = 'h2',
): SidecarSetView {
  return {
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'SidecarSet',
    metadata: {
      name: 'test-sidecarset',
      uid: 'scs-uid',
      generation: 2,
      resourceVersion: '22',
      annotations: { [SIDECARSET_HASH_KEY]: hash, [SIDECARSET_HASH_WITHOUT_IMAGE_KEY]: 'without-1' },
    },
    spec: {
      selector: { matchLabels: { app: 'nginx' } },
      containers: [{ name: 'cold-sidecar', image: 'cold-image:v2' }],
      updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
      ...over,
    },
  };
}

export interface PodOptions {
  name?: string;
  /** The pod carries the SidecarSet's current hash (already upgraded). */
  updated?: boolean;
  ready?: boolean;
  withoutImage?: string;
  labels?: Record<string, string>;
  /** Creation timestamp offset in seconds from T0. */
  createdAt?: number;
  sidecarImage?: string;
}

export function pod(o: PodOptions = {}): Pod {
  const name = o.name ?? 'pod-0';
  const ready = o.ready ?? true;
  const hashEntry = (hash: string) =>
    JSON.stringify({ 'test-sidecarset': { hash, sidecarSetName: 'test-sidecarset' } });
  const image = o.sidecarImage ?? (o.updated ? 'cold-image:v2' : 'cold-image:v1');
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'ns',
      uid: `${name}-uid`,
      resourceVersion: '1',
      creationTimestamp: new Date(T0.getTime() + (o.createdAt ?? 0) * 1000).toISOString(),
      labels: { app: 'nginx', ...(o.labels ?? {}) },
      annotations: {
        [SIDECARSET_HASH_KEY]: hashEntry(o.updated ? 'h2' : 'h1'),
        [SIDECARSET_HASH_WITHOUT_IMAGE_KEY]: hashEntry(o.withoutImage ?? 'without-1'),
        [SIDECARSET_LIST_KEY]: 'test-sidecarset',
      },
    },
    spec: {
      nodeName: 'node-1',
      containers: [
        { name: 'cold-sidecar', image },
        { name: 'app', image: 'nginx:1' },
      ],
    },
    status: {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: T0.toISOString() }],
      containerStatuses: [
        { name: 'cold-sidecar', image, imageID: `${image}-id`, ready, restartCount: 0 },
        { name: 'app', image: 'nginx:1', imageID: 'nginx-1-id', ready: true, restartCount: 0 },
      ],
    },
  } as Pod;
}

/** `n` pods, the first `updated` of them upgraded; `notReadyUpdated` of the upgraded ones not ready. */
export function pods(
  n: number,
  updated: number,
  notReadyUpdated: number,
  extra: (i: number) => PodOptions = () => ({}),
): Pod[] {
  return Array.from({ length: n }, (_, i) =>
    pod({ name: `pod-${i}`, updated: i < updated, ready: !(i < notReadyUpdated), createdAt: i, ...extra(i) }),
  );
}

/** A pod with a hot-upgrade sidecar `hot` injected as `hot-1` (working) and `hot-2` (idle). */
export function hotPod(images: { one: string; two: string; working?: string }, ready = true): Pod {
  const base = pod({ name: 'hot-pod' });
  const working = images.working ?? 'hot-1';
  const st = (n: string, image: string) => ({
    name: n,
    image,
    imageID: `${image}-id`,
    ready,
    restartCount: 0,
  });
  return {
    ...base,
    metadata: {
      ...base.metadata,
      annotations: {
        ...base.metadata?.annotations,
        [WORKING_HOT_UPGRADE_CONTAINER_KEY]: JSON.stringify({ hot: working }),
        'version.sidecarset.kruise.io/hot-1': '1',
        'versionalt.sidecarset.kruise.io/hot-1': '0',
        'version.sidecarset.kruise.io/hot-2': '0',
        'versionalt.sidecarset.kruise.io/hot-2': '1',
      },
    },
    spec: {
      containers: [
        { name: 'hot-1', image: images.one },
        { name: 'hot-2', image: images.two },
        { name: 'app', image: 'nginx:1' },
      ],
    },
    status: {
      ...base.status,
      containerStatuses: [st('hot-1', images.one), st('hot-2', images.two), st('app', 'nginx:1')],
    },
  } as Pod;
}

export const hotSidecarSet = (image = 'hot-image:v2'): SidecarSetView =>
  sidecarSet({
    containers: [
      { name: 'hot', image, upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'empty:1' } },
    ],
  });

/**
 * What a kubelet does after an in-place sidecar upgrade, for every pod in `c`: each container whose status image
 * differs from its spec image is restarted on the new one (its image, an imageID, restartCount + 1).
 */
export function restartChangedContainers(c: MemoryCluster): void {
  for (const p of c.all<Pod>('Pod')) {
    const image = new Map(
      [...(p.spec?.containers ?? []), ...(p.spec?.initContainers ?? [])].map((x) => [x.name, x.image ?? '']),
    );
    const restart = (statuses: ContainerStatus[] | null | undefined) =>
      (statuses ?? []).map((s) =>
        s.image === image.get(s.name)
          ? s
          : {
              ...s,
              image: image.get(s.name) ?? '',
              imageID: `${image.get(s.name)}-id`,
              restartCount: (s.restartCount ?? 0) + 1,
            },
      );
    const init = p.status?.initContainerStatuses;
    c.add(<Pod>{
      ...p,
      status: {
        ...p.status,
        containerStatuses: restart(p.status?.containerStatuses),
        ...(init ? { initContainerStatuses: restart(init) } : {}),
      },
    });
  }
}

/** The SidecarSet with its containers declared as native sidecars (init containers, `restartPolicy: Always`). */
export function asNativeSet(set: SidecarSetView): SidecarSetView {
  const spec = set.spec ?? {};
  const natives = (spec.containers ?? []).map((c) => ({ ...c, restartPolicy: 'Always' }));
  return { ...set, spec: { ...spec, containers: [], initContainers: natives } };
}

/**
 * The pod with `names` (default: every container but `app`) injected as native sidecars: moved to
 * `spec.initContainers` with `restartPolicy: Always` (after a plain init container `setup`, which ran and
 * completed), their statuses to `initContainerStatuses`.
 */
export function asNativePod(p: Pod, names?: readonly string[]): Pod {
  const isNative = (n: string) => (names ? names.includes(n) : n !== 'app');
  const containers = p.spec?.containers ?? [];
  const statuses = p.status?.containerStatuses ?? [];
  const setup = { name: 'setup', image: 'busybox:1' };
  const setupStatus = {
    name: 'setup',
    image: 'busybox:1',
    imageID: 'busybox-1-id',
    ready: false,
    restartCount: 0,
  };
  return {
    ...p,
    spec: {
      ...p.spec,
      initContainers: [
        setup,
        ...containers.filter((c) => isNative(c.name)).map((c) => ({ ...c, restartPolicy: 'Always' })),
      ],
      containers: containers.filter((c) => !isNative(c.name)),
    },
    status: {
      ...p.status,
      initContainerStatuses: [setupStatus, ...statuses.filter((s) => isNative(s.name))],
      containerStatuses: statuses.filter((s) => !isNative(s.name)),
    },
  } as Pod;
}
