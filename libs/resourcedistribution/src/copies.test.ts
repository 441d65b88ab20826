// §7.3 copies: makeResourceObject, mergeMetadata, needToUpdate, isControlledByDistributor
// (TestIsControlledByDistributorAcceptsAlphaOwnerRef, TestMakeResourceObjectRewritesOwnerRefToBeta).
import { describe, expect, it } from 'vitest';
import type { ResourceDistribution } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { desiredCopy, isControlledByDistribution, needsUpdate } from './copies.js';

const rd: ResourceDistribution = {
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'ResourceDistribution',
  metadata: { name: 'test-resource-distribution', uid: 'uid-1' },
  spec: { resource: {}, targets: {} },
};
const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'test-secret-1', namespace: 'ignored', labels: { app: 'x' }, annotations: { a: '1' } },
  type: 'Opaque',
  data: { k: 'dg==' },
};

describe('isControlledByDistribution', () => {
  const owned = (ref: Record<string, unknown>): KubeObject => ({ metadata: { name: 's', ownerReferences: [{ controller: true, ...ref } as never] } });
  it.each<[string, KubeObject, boolean]>([
    ['same UID', owned({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', name: 'other', uid: 'uid-1' }), true],
    ['a v1alpha1 reference with the UID', owned({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'test-resource-distribution', uid: 'uid-1' }), true],
    ['another UID, same name', owned({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', name: 'test-resource-distribution', uid: 'uid-2' }), false],
    ['no UID on the reference: kind and name decide (any version)', owned({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'test-resource-distribution', uid: '' }), true],
    ['no controller reference', { metadata: { name: 's' } }, false],
  ])('%s', (_, obj, expected) => {
    expect(isControlledByDistribution(obj, rd)).toBe(expected);
  });
});

describe('desiredCopy (makeResourceObject)', () => {
  it('namespace set, controller reference, the two annotations (no distributed.timestamp)', () => {
    const copy = desiredCopy(rd, secret, 'ns-1', 'h1');
    expect(copy.metadata).toEqual({
      name: 'test-secret-1',
      namespace: 'ns-1',
      labels: { app: 'x' },
      annotations: {
        a: '1',
        'kruise.io/resourcedistribution.resource.hashcode': 'h1',
        'kruise.io/resourcedistribution.resource.from': 'test-resource-distribution',
      },
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution', name: 'test-resource-distribution', uid: 'uid-1', controller: true, blockOwnerDeletion: true },
      ],
    });
    expect(copy['data']).toEqual({ k: 'dg==' });
  });
  it('rewrites an existing v1alpha1 reference with the UID to v1beta1; keeps labels, annotations and finalizers it does not set', () => {
    const existing: KubeObject = {
      metadata: {
        name: 'test-secret-1',
        namespace: 'ns-1',
        resourceVersion: '7',
        labels: { app: 'old', extra: 'kept' },
        annotations: { b: '2', 'kruise.io/resourcedistribution.resource.hashcode': 'old' },
        finalizers: ['z/f'],
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'test-resource-distribution', uid: 'uid-1', controller: true }],
      },
    };
    const copy = desiredCopy(rd, { ...secret, metadata: { ...secret.metadata, finalizers: ['a/f'] } }, 'ns-1', 'h2', existing);
    expect(copy.metadata?.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'apps.kruise.io/v1beta1', uid: 'uid-1' })]);
    expect(copy.metadata?.labels).toEqual({ app: 'x', extra: 'kept' });
    expect(copy.metadata?.annotations).toMatchObject({ a: '1', b: '2', 'kruise.io/resourcedistribution.resource.hashcode': 'h2' });
    expect(copy.metadata?.finalizers).toEqual(['a/f', 'z/f']);
    expect(copy.metadata?.resourceVersion).toBe('7');
  });
});

describe('needsUpdate (needToUpdate, on what the API server stores)', () => {
  const stored = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', resourceVersion: '3' }, type: 'Opaque', data: { p: Buffer.from('pw').toString('base64') } };
  it.each<[string, Record<string, unknown>, boolean]>([
    ['the same data', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', labels: { x: 'y' } }, type: 'Opaque', data: stored.data }, false],
    ['stringData equal to the stored data, type defaulted', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { p: 'pw' } }, false],
    ['edited data', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', data: { p: 'eA==' } }, true],
    ['another type', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'kubernetes.io/tls', data: stored.data }, true],
    ['a key added', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { ...stored.data, q: 'eA==' } }, true],
  ])('%s → %s', (_, desired, expected) => {
    expect(needsUpdate(stored, desired)).toBe(expected);
  });
  it('ConfigMaps: data and binaryData compared, an empty map is no map', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    expect(needsUpdate(cm, { ...cm, metadata: { name: 'c', annotations: { z: '1' } } })).toBe(false);
    expect(needsUpdate(cm, { ...cm, data: { a: 'c' } })).toBe(true);
    expect(needsUpdate({ ...cm, data: {} }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).toBe(false);
    expect(needsUpdate(cm, { ...cm, binaryData: { b: 'AA==' } })).toBe(true);
  });
  it('a Secret key named __proto__ (a valid key) in stringData is compared like any other (docs/reliability.md finding 26)', () => {
    const withKey = JSON.parse(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"type":"Opaque","data":{"__proto__":"cHc="}}`);
    expect(needsUpdate(withKey, JSON.parse(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"__proto__":"pw"}}`))).toBe(false);
    expect(needsUpdate(withKey, JSON.parse(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"__proto__":"other"}}`))).toBe(true);
  });
});
