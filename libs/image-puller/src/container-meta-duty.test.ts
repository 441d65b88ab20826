import type { Pod } from '@regatta/api';
import type { Container } from '@regatta/cri';
import { describe, expect, it } from 'vitest';
import { observedContainers, watchedByNodeDaemon } from './container-meta-duty.js';

const cri = (
  id: string,
  name: string,
  createdAt: number,
  o: { state?: Container['state']; hash?: string; restarts?: string } = {},
): Container =>
  ({
    id,
    podSandboxId: 's',
    metadata: { name, attempt: 9 },
    state: o.state ?? 'CONTAINER_RUNNING',
    createdAt,
    labels: { 'io.kubernetes.container.name': name },
    annotations: {
      ...(o.hash !== undefined ? { 'io.kubernetes.container.hash': o.hash } : {}),
      ...(o.restarts !== undefined ? { 'io.kubernetes.container.restartCount': o.restarts } : {}),
    },
    imageRef: '',
  }) as Container;

describe('observedContainers', () => {
  const pod = {
    metadata: { name: 'p' },
    status: { containerStatuses: [{ name: 'app', containerID: 'cri-o://old' }] },
  } as unknown as Pod;
  it('takes the newest instance per name, the kubelet hash (hex) and restart count, the runtime of the status', () => {
    expect(
      observedContainers(pod, [
        cri('a1', 'app', 1, { state: 'CONTAINER_EXITED', hash: 'ff', restarts: '0' }),
        cri('a2', 'app', 2, { hash: '4c6381b4', restarts: '1' }),
        cri('s1', 'side', 1),
      ]),
    ).toEqual([
      { name: 'app', containerID: 'cri-o://a2', restartCount: 1, running: true, plainHash: 0x4c6381b4 },
      // no status yet: containerd; no annotations: the CRI attempt, hash 0
      { name: 'side', containerID: 'containerd://s1', restartCount: 9, running: true, plainHash: 0 },
    ]);
  });
});

describe('watchedByNodeDaemon', () => {
  const owned = (apiVersion: string, controller = true) =>
    ({
      metadata: { name: 'p', ownerReferences: [{ apiVersion, kind: 'X', name: 'x', uid: 'u', controller }] },
    }) as unknown as Pod;
  it.each([
    ['a CloneSet pod', owned('apps.kruise.io/v1alpha1'), true],
    ['an Advanced StatefulSet pod', owned('apps.kruise.io/v1beta1'), true],
    ['a ReplicaSet pod', owned('apps/v1'), false],
    ['a non-controller kruise owner', owned('apps.kruise.io/v1alpha1', false), false],
    [
      'a pod a SidecarSet injected',
      { metadata: { name: 'p', annotations: { 'kruise.io/sidecarset-hash': '{}' } } } as unknown as Pod,
      true,
    ],
    ['a bare pod', { metadata: { name: 'p' } } as unknown as Pod, false],
  ])('%s → %s', (_name, pod, watched) => {
    expect(watchedByNodeDaemon(pod)).toBe(watched);
  });
});
