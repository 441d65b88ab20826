// The budget's pod reading over pods as its program's cache holds them (docs/adr/0060-pod-projection.md): the cache
// keeps only PUB_POD_FIELDS, so every function that reads cached pods must give over projected pods what it gives
// over whole ones — availability (ready, in-place update and sidecar upgrade completed), the pods a budget selects
// and the replicas it counts, the count of available pods, the webhook's decision for an eviction, the pod handler.
import type { Pod, PodUnavailableBudget } from '@regatta/api';
import { PUB_POD_FIELDS, projection } from '@regatta/bus';
import { type KubeObject, isProjected } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { countAvailable, isPodAvailable } from './budget.js';
import { decide } from './decision.js';
import { podChangeMatters } from './handlers.js';
import { type WorkloadView, podsForPub } from './selection.js';

const project = projection(PUB_POD_FIELDS);

interface PodOpts {
  name: string;
  ready?: boolean;
  /** An in-place update recorded (image nginx:1 → the spec's), the container still running the old image ID. */
  inPlacePending?: boolean;
  unavailableLabel?: boolean;
  noProtect?: boolean;
  deleting?: boolean;
  phase?: 'Running' | 'Pending' | 'Succeeded';
}

/** A pod as the API server has it: what the budget reads, and what a kubelet and defaulting add. */
function whole(o: PodOpts): Pod {
  const image = o.inPlacePending ? 'nginx:2' : 'nginx:1';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name,
      namespace: 'ns',
      uid: `uid-${o.name}`,
      labels: { app: 'web', ...(o.unavailableLabel ? { 'unavailable-pod.kruise.io/drain': 'true' } : {}) },
      annotations: {
        'kruise.io/related-pub': 'web-pub',
        ...(o.noProtect ? { 'pub.kruise.io/no-protect': 'true' } : {}),
        ...(o.inPlacePending
          ? {
              'apps.kruise.io/inplace-update-state': JSON.stringify({
                revision: 'web-2',
                updateTimestamp: '2026-01-01T00:00:00Z',
                lastContainerStatuses: { main: { imageID: 'sha-1' } },
              }),
            }
          : {}),
      },
      ownerReferences: [
        {
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'web',
          uid: 'cs-1',
          controller: true,
        },
      ],
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      nodeName: 'node-1',
      readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
      containers: [
        {
          name: 'main',
          image,
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          readinessProbe: { httpGet: { path: '/', port: 80 } },
          resources: { requests: { cpu: '100m' } },
          env: [{ name: 'A', value: 'b' }],
        },
      ],
      volumes: [{ name: 'v', emptyDir: {} }],
      tolerations: [{ key: 'k', operator: 'Exists' }],
    },
    status: {
      phase: o.phase ?? 'Running',
      podIP: '10.0.0.2',
      qosClass: 'Burstable',
      conditions: [
        { type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: 't' },
        { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: 't' },
      ],
      containerStatuses: [
        {
          name: 'main',
          image: 'nginx:1',
          imageID: 'sha-1',
          containerID: 'containerd://x',
          ready: o.ready !== false,
          restartCount: 0,
          state: { running: { startedAt: 't' } },
          lastState: {},
        },
      ],
    },
  } as Pod;
}

const PODS: PodOpts[] = [
  { name: 'ready' },
  { name: 'not-ready', ready: false },
  { name: 'in-place-pending', inPlacePending: true },
  { name: 'unavailable-label', unavailableLabel: true },
  { name: 'no-protect', noProtect: true },
  { name: 'deleting', deleting: true },
  { name: 'pending', phase: 'Pending', ready: false },
  { name: 'succeeded', phase: 'Succeeded', ready: false },
];
const wholes = PODS.map(whole);
const projected = wholes.map((p) => project(p as KubeObject) as Pod);

const pub: PodUnavailableBudget = {
  apiVersion: 'policy.kruise.io/v1alpha1',
  kind: 'PodUnavailableBudget',
  metadata: { name: 'web-pub', namespace: 'ns' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
    maxUnavailable: 1,
  },
  status: {
    unavailableAllowed: 1,
    currentAvailable: 3,
    desiredAvailable: 2,
    totalReplicas: 3,
    disruptedPods: {},
    unavailablePods: {},
  },
} as PodUnavailableBudget;
const cloneSet = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'cs-1' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
} as WorkloadView;
const workloads = {
  get: (group: string, kind: string, _ns: string, name: string) =>
    group === 'apps.kruise.io' && kind === 'CloneSet' && name === 'web' ? cloneSet : undefined,
  replicaSets: () => [],
};

describe('the budget over pods as the program caches them (PUB_POD_FIELDS)', () => {
  it('the cache holds projected pods, without what the budget never reads', () => {
    const p = projected[0] as Pod & Record<string, Record<string, unknown>>;
    expect(isProjected(p)).toBe(true);
    expect(p['spec']?.['volumes']).toBeUndefined();
    expect(p['status']?.['podIP']).toBeUndefined();
  });

  it.each(PODS.map((o, i) => [o.name, i] as const))('%s: the same availability', (_, i) => {
    expect(isPodAvailable(projected[i]!)).toBe(isPodAvailable(wholes[i]!));
  });

  it('availability is not vacuous: the ready pod is available, the others are not', () => {
    expect(wholes.map(isPodAvailable)).toEqual([true, false, false, false, true, true, false, false]);
  });

  it('the same pods selected, replicas counted and pods available', () => {
    const a = podsForPub(pub, wholes, workloads);
    const b = podsForPub(pub, projected, workloads);
    expect(b.pods.map((p) => p.metadata?.name)).toEqual(a.pods.map((p) => p.metadata?.name));
    expect(b.expected).toBe(a.expected);
    const none = { disruptedPods: {}, unavailablePods: {} };
    expect(countAvailable(b.pods, none)).toBe(countAvailable(a.pods, none));
  });

  it.each(PODS.map((o, i) => [o.name, i] as const))('%s: the same eviction decision', (_, i) => {
    expect(decide(projected[i]!, pub, 'EVICT')).toEqual(decide(wholes[i]!, pub, 'EVICT'));
  });

  it('the pod handler sees the same changes', () => {
    for (let i = 0; i < wholes.length; i++)
      for (let j = 0; j < wholes.length; j++) {
        const change = (list: Pod[]) =>
          ({ type: 'update', object: list[j], old: list[i] }) as Parameters<typeof podChangeMatters>[0];
        expect(podChangeMatters(change(projected))).toBe(podChangeMatters(change(wholes)));
      }
  });
});
