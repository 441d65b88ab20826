import type { Pod, PodUnavailableBudget } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { podsForPub, pubForPod, type WorkloadView, type Workloads } from './selection.js';

const owned = (
  name: string,
  kind: string,
  apiVersion: string,
  owner: string,
  uid: string,
  labels = { app: 'web' },
): Pod => ({
  metadata: {
    name,
    namespace: 'ns',
    labels,
    ownerReferences: [{ apiVersion, kind, name: owner, uid, controller: true }],
  },
  status: { phase: 'Running' },
});
const wl = (
  name: string,
  uid: string,
  replicas: number,
  owner?: { kind: string; name: string; uid: string },
): WorkloadView => ({
  metadata: {
    name,
    namespace: 'ns',
    uid,
    ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', ...owner, controller: true }] } : {}),
  },
  spec: { replicas },
});
const table: Record<string, WorkloadView> = {
  'apps/Deployment/web': wl('web', 'd1', 4),
  'apps/ReplicaSet/web-1': wl('web-1', 'rs1', 2, { kind: 'Deployment', name: 'web', uid: 'd1' }),
  'apps/ReplicaSet/web-2': wl('web-2', 'rs2', 2, { kind: 'Deployment', name: 'web', uid: 'd1' }),
  'apps.kruise.io/CloneSet/cs': wl('cs', 'c1', 3),
};
const workloads: Workloads = {
  get: (g, k, _ns, n) => table[`${g}/${k}/${n}`],
  replicaSets: () => [table['apps/ReplicaSet/web-1']!, table['apps/ReplicaSet/web-2']!],
};
const pods = [
  owned('a', 'ReplicaSet', 'apps/v1', 'web-1', 'rs1'),
  owned('b', 'ReplicaSet', 'apps/v1', 'web-2', 'rs2'),
  owned('c', 'CloneSet', 'apps.kruise.io/v1alpha1', 'cs', 'c1', { app: 'cs' }),
  { ...owned('d', 'ReplicaSet', 'apps/v1', 'web-1', 'rs1'), status: { phase: 'Succeeded' } },
];
const pub = (
  spec: PodUnavailableBudget['spec'],
  annotations?: Record<string, string>,
): PodUnavailableBudget => ({
  metadata: { name: 'p', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  spec,
});
const names = (ps: Pod[]) => ps.map((p) => p.metadata?.name);

describe('podsForPub (upstream GetPodsForPub)', () => {
  it.each([
    [
      'a selector counts the Deployment once across its ReplicaSets',
      pub({ selector: { matchLabels: { app: 'web' } } }),
      ['a', 'b'],
      4,
    ],
    [
      'a targetRef to a Deployment takes its ReplicaSets’ pods',
      pub({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } }),
      ['a', 'b'],
      4,
    ],
    [
      'a targetRef to a CloneSet (any version of the group)',
      pub({ targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'cs' } }),
      ['c'],
      3,
    ],
    [
      'a missing workload',
      pub({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'nope' } }),
      [],
      0,
    ],
    ['an empty selector selects nothing', pub({ selector: {} }), [], 0],
    ['a selector with no matching pod', pub({ selector: { matchLabels: { app: 'none' } } }), [], 0],
    [
      'the total-replicas annotation',
      pub({ selector: { matchLabels: { app: 'web' } } }, { 'pub.kruise.io/protect-total-replicas': '10' }),
      ['a', 'b'],
      10,
    ],
  ] as const)('%s', (_, p, wantPods, wantExpected) => {
    const r = podsForPub(p, pods, workloads);
    expect(names(r.pods)).toEqual(wantPods);
    expect(r.expected).toBe(wantExpected);
  });
});

describe('pubForPod (upstream GetPubForPod)', () => {
  const bySelector = {
    ...pub({ selector: { matchLabels: { app: 'cs' } } }),
    metadata: { name: 'sel', namespace: 'ns' },
  };
  const byRef = {
    ...pub({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } }),
    metadata: { name: 'ref', namespace: 'ns' },
  };
  const other = { ...bySelector, metadata: { name: 'other', namespace: 'other' } };
  it.each([
    ['a Deployment pod → the budget naming the Deployment', pods[0]!, 'ref'],
    ['a CloneSet pod → the selector budget', pods[2]!, 'sel'],
    [
      'a pod of another namespace',
      { ...pods[2]!, metadata: { ...pods[2]!.metadata, namespace: 'x' } },
      undefined,
    ],
  ] as const)('%s', (_, pod, want) => {
    expect(pubForPod(pod, [other, bySelector, byRef], workloads)?.metadata?.name).toBe(want);
  });
});
