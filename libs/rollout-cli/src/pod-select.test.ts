import { describe, expect, it } from 'vitest';
import type { Pod } from '@regatta/api';
import type { Workload } from '@regatta/workload';
import { podQuery, selectPods, sidecarSetOf, subsetsOf } from './pod-select.js';

const selector = { matchLabels: { app: 'web' } };
const owned = (name: string, uid: string, controller = true): Pod =>
  ({ metadata: { name, namespace: 'ns', ownerReferences: [{ apiVersion: 'x', kind: 'CloneSet', name: 'web', uid, controller }] } }) as Pod;
const annotated = (name: string, ns: string, injected: string): Pod =>
  ({ metadata: { name, namespace: ns, annotations: { 'kruise.io/sidecarset-injected-list': injected } } }) as Pod;

describe('podQuery', () => {
  it.each([
    ['a CloneSet: its namespace and selector', 'CloneSet', { spec: { selector } }, { namespace: 'ns', labelSelector: selector }],
    ['a SidecarSet with spec.namespace', 'SidecarSet', { spec: { selector, namespace: 'apps' } }, { namespace: 'apps', labelSelector: selector }],
    [
      'a SidecarSet with a namespace selector: every namespace, narrowed',
      'SidecarSet',
      { spec: { selector, namespaceSelector: { matchLabels: { team: 'a' } } } },
      { namespace: undefined, labelSelector: selector, namespaceSelector: { matchLabels: { team: 'a' } } },
    ],
  ] as const)('%s', (_name, kind, w, expected) => {
    expect(podQuery(kind, w as Workload, 'ns')).toEqual(expected);
  });
});

describe('selectPods', () => {
  const w = { metadata: { name: 'logging', uid: 'u1' } } as Workload;
  it('keeps the pods the workload controls', () => {
    const pods = [owned('a', 'u1'), owned('b', 'u2'), owned('c', 'u1', false), { metadata: { name: 'd' } } as Pod];
    expect(selectPods('CloneSet', w, pods).map((p) => p.metadata?.name)).toEqual(['a']);
  });
  it('keeps the pods a SidecarSet was injected into, in the namespaces its selector chose', () => {
    const pods = [annotated('a', 'one', 'logging'), annotated('b', 'one', 'other,logging'), annotated('c', 'two', 'logging'), annotated('d', 'one', 'logging-2')];
    expect(selectPods('SidecarSet', w, pods, new Set(['one'])).map((p) => p.metadata?.name)).toEqual(['a', 'b']);
    expect(selectPods('SidecarSet', w, pods).map((p) => p.metadata?.name)).toEqual(['a', 'b', 'c']);
  });
  it("keeps a UnitedDeployment's subset pods", () => {
    const pods = [{ metadata: { name: 'a', labels: { 'apps.kruise.io/subset-name': 's' } } } as Pod, { metadata: { name: 'b' } } as Pod];
    expect(selectPods('UnitedDeployment', w, pods).map((p) => p.metadata?.name)).toEqual(['a']);
  });
});

describe('subsetsOf', () => {
  it.each([
    [
      'v1beta1 subsetStatuses, in spec order',
      {
        spec: { topology: { subsets: [{ name: 'b' }, { name: 'a' }] } },
        status: { subsetStatuses: [{ name: 'a', replicas: 2, readyReplicas: 1, partition: 1 }, { name: 'b', replicas: 1 }] },
      },
      [
        { name: 'b', replicas: 1, partition: 0 },
        { name: 'a', replicas: 2, ready: 1, partition: 1 },
      ],
    ],
    [
      'the v1alpha1 view',
      { spec: { topology: { subsets: [{ name: 'a' }] } }, status: { subsetReplicas: { a: 3 }, updateStatus: { currentPartitions: { a: 2 } } } },
      [{ name: 'a', replicas: 3, partition: 2 }],
    ],
    ['no status yet', { spec: { topology: { subsets: [{ name: 'a' }] } } }, [{ name: 'a', replicas: 0, partition: 0 }]],
  ] as const)('%s', (_name, w, expected) => {
    expect(subsetsOf(w as unknown as Workload)).toEqual(expected);
  });
});

describe('sidecarSetOf', () => {
  it('reads the hash annotation and the latest revision', () => {
    const w = { metadata: { name: 'logging', annotations: { 'kruise.io/sidecarset-hash': 'h2' } }, status: { latestRevision: 'logging-r2' } } as Workload;
    expect(sidecarSetOf(w)).toEqual({ name: 'logging', hash: 'h2', revision: 'logging-r2' });
  });
});
