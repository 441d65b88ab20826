import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { INSTANCE_ID_LABEL } from './instance-id.js';
import { newCloneSetClaims, newCloneSetPod } from './new-pod.js';
import {
  type PersistentVolumeClaim,
  claimName,
  claimOwnedByPod,
  claimsOfPod,
  claimsToCreate,
  planPvcCleanup,
  volumesWithClaims,
} from './pvc.js';

const now = new Date('2024-05-01T12:00:00Z');
const cs = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'foo', namespace: 'default', uid: 'cs-uid' },
  spec: { selector: { matchLabels: { foo: 'bar' } } },
};
const vct = [
  {
    metadata: { name: 'datadir' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  },
];
const template = (env: string) => ({
  metadata: { labels: { foo: 'bar' } },
  spec: {
    containers: [{ name: 'nginx', image: 'nginx', env: [{ name: 'e', value: env }] }],
    volumes: [
      { name: 'datadir', emptyDir: {} },
      { name: 'home', hostPath: { path: '/home' } },
    ],
  },
});
const ref = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'foo',
  uid: 'cs-uid',
  controller: true,
  blockOwnerDeletion: true,
};

// TestCreatePods: ids [id1, id3, id4], 1 current creation, existing PVC datadir-foo-id3
describe('new pods and claims (TestCreatePods)', () => {
  const revisions = {
    id1: ['revision_abc', 'v1'],
    id3: ['revision_xyz', 'v2'],
    id4: ['revision_xyz', 'v2'],
  } as const;
  const pods = (Object.entries(revisions) as [string, readonly [string, string]][]).map(([id, [rev, env]]) =>
    newCloneSetPod({
      cloneSet: cs,
      template: template(env),
      revision: rev,
      volumeClaimTemplates: vct,
      id,
      now,
    }),
  );

  it('names, labels, owner, readiness gate and lifecycle', () => {
    const pod = pods[0] as Pod;
    expect(pod.metadata).toEqual({
      name: 'foo-id1',
      generateName: 'foo-',
      namespace: 'default',
      labels: {
        foo: 'bar',
        'controller-revision-hash': 'revision_abc',
        'pod-template-hash': 'revision_abc',
        [INSTANCE_ID_LABEL]: 'id1',
        'lifecycle.apps.kruise.io/state': 'PreparingNormal',
      },
      annotations: { 'lifecycle.apps.kruise.io/timestamp': '2024-05-01T12:00:00Z' },
      ownerReferences: [ref],
    });
    expect(pod.spec?.readinessGates).toEqual([
      { conditionType: 'InPlaceUpdateReady' },
      { conditionType: 'KruisePodReady' },
    ]);
    expect(pods.map((p) => p.spec?.containers?.[0]?.env?.[0]?.value)).toEqual(['v1', 'v2', 'v2']);
  });

  it('mounts the claim instead of the template volume of the same name, then the others', () => {
    expect(pods[1]?.spec?.['volumes']).toEqual([
      { name: 'datadir', persistentVolumeClaim: { claimName: 'datadir-foo-id3' } },
      { name: 'home', hostPath: { path: '/home' } },
    ]);
  });

  it('creates only the claims that do not exist', () => {
    const existing = [{ metadata: { name: 'datadir-foo-id3' } }];
    const created = ['id1', 'id3', 'id4'].flatMap((id) =>
      claimsToCreate(newCloneSetClaims(cs, vct, id), existing),
    );
    expect(created.map((c) => c.metadata?.name)).toEqual(['datadir-foo-id1', 'datadir-foo-id4']);
    expect(created[0]?.metadata).toEqual({
      name: 'datadir-foo-id1',
      namespace: 'default',
      labels: { foo: 'bar', [INSTANCE_ID_LABEL]: 'id1' },
      ownerReferences: [ref],
    });
    expect(created[0]?.spec).toEqual(vct[0]?.spec);
    expect(created[0]).toMatchObject({ apiVersion: 'v1', kind: 'PersistentVolumeClaim' });
  });

  it('names claims <template>-<pod>', () => {
    expect(claimName('datadir', 'foo', 'abcde')).toBe('datadir-foo-abcde');
    expect(volumesWithClaims(undefined, vct, 'foo', 'x')).toEqual([
      { name: 'datadir', persistentVolumeClaim: { claimName: 'datadir-foo-x' } },
    ]);
  });
});

const pvc = (name: string, id: string): PersistentVolumeClaim => ({
  metadata: { name, labels: { [INSTANCE_ID_LABEL]: id }, ownerReferences: [ref] },
});
const podWithId = (id: string, extra: Partial<Pod['metadata']> = {}): Pod => ({
  metadata: { name: `foo-${id}`, uid: `pod-${id}`, labels: { [INSTANCE_ID_LABEL]: id }, ...extra },
});

// TestDeletePods: deleting id1 and id3 deletes their claims, keeps datadir-foo-id2
describe('claimsOfPod (TestDeletePods)', () => {
  it('finds the claims sharing the instance id', () => {
    const pvcs = ['id1', 'id2', 'id3'].map((id) => pvc(`datadir-foo-${id}`, id));
    const deleted = ['id1', 'id3']
      .flatMap((id) => claimsOfPod(podWithId(id), pvcs))
      .map((c) => c.metadata?.name);
    expect(deleted).toEqual(['datadir-foo-id1', 'datadir-foo-id3']);
  });
});

describe('planPvcCleanup (reuse disabled)', () => {
  it('keeps active claims, hands claims of inactive pods over, deletes orphans', () => {
    const inactive = podWithId('b', { deletionTimestamp: '2024-05-01T12:00:00Z' });
    const plan = planPvcCleanup(
      [podWithId('a')],
      [inactive],
      [pvc('d-a', 'a'), pvc('d-b', 'b'), pvc('d-c', 'c')],
    );
    expect(plan.active.map((c) => c.metadata?.name)).toEqual(['d-a']);
    expect(plan.handOver.map((h) => [h.pvc.metadata?.name, h.pod.metadata?.name])).toEqual([
      ['d-b', 'foo-b'],
    ]);
    expect(plan.remove.map((c) => c.metadata?.name)).toEqual(['d-c']);
  });
  it('moves ownership from the CloneSet to the pod', () => {
    const moved = claimOwnedByPod(pvc('d-b', 'b'), 'cs-uid', {
      ...podWithId('b'),
      apiVersion: 'v1',
      kind: 'Pod',
    });
    expect(moved.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'foo-b',
        uid: 'pod-b',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
  });
});
