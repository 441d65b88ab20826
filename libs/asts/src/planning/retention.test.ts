import { describe, expect, it } from 'vitest';
import type { StatefulSetObject } from '../statefulset-object.js';
import { claimMatchesPolicy, claimOwnerRefsFor, hasStaleOwnerRef, wantedRefs } from './retention.js';

const KIND = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' };
const set = (whenDeleted?: string, whenScaled?: string) =>
  ({
    metadata: { name: 'web', uid: 'set-uid' },
    spec: { persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled } },
  }) as StatefulSetObject;
const pod = { metadata: { name: 'web-3', uid: 'pod-uid' } };
const claim = (...uids: string[]) => ({
  metadata: {
    name: 'data-web-3',
    ownerReferences: uids.map((uid) => ({
      apiVersion: 'v1',
      kind: 'X',
      name: uid === 'pod-uid' ? 'web-3' : 'web',
      uid,
    })),
  },
});

describe('PVC retention policy ownerRefs', () => {
  it.each([
    { deleted: 'Retain', scaled: 'Retain', down: false, want: { set: false, pod: false } },
    { deleted: 'Retain', scaled: 'Retain', down: true, want: { set: false, pod: false } },
    { deleted: 'Delete', scaled: 'Retain', down: false, want: { set: true, pod: false } },
    { deleted: 'Delete', scaled: 'Retain', down: true, want: { set: true, pod: false } },
    { deleted: 'Retain', scaled: 'Delete', down: false, want: { set: false, pod: false } },
    { deleted: 'Retain', scaled: 'Delete', down: true, want: { set: false, pod: true } },
    { deleted: 'Delete', scaled: 'Delete', down: false, want: { set: true, pod: false } },
    { deleted: 'Delete', scaled: 'Delete', down: true, want: { set: false, pod: true } },
  ] as const)(
    'whenDeleted $deleted whenScaled $scaled, scaled down $down',
    ({ deleted, scaled, down, want }) => {
      expect(wantedRefs({ whenDeleted: deleted, whenScaled: scaled }, down)).toEqual(want);
      const s = set(deleted, scaled);
      const refs = claimOwnerRefsFor(claim(), s, pod, down, KIND) ?? [];
      expect(refs.map((r) => r.uid).sort()).toEqual(
        [...(want.set ? ['set-uid'] : []), ...(want.pod ? ['pod-uid'] : [])].sort(),
      );
      const fixed = { metadata: { ownerReferences: refs } };
      expect(claimMatchesPolicy(fixed, s, pod, down)).toBe(true);
      expect(claimOwnerRefsFor(fixed, s, pod, down, KIND)).toBeUndefined();
    },
  );

  it('missing policy is Retain/Retain: refs to the set and pod are removed', () => {
    const refs = claimOwnerRefsFor(
      claim('set-uid', 'pod-uid', 'other'),
      { metadata: { name: 'web', uid: 'set-uid' } },
      pod,
      true,
      KIND,
    );
    expect(refs?.map((r) => r.uid)).toEqual(['other']);
  });

  it('a claim referring to an earlier pod of the same name is stale', () => {
    expect(hasStaleOwnerRef(claim('old-pod'), { name: 'web-3', uid: 'pod-uid' })).toBe(false);
    const c = {
      metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'web-3', uid: 'old' }] },
    };
    expect(hasStaleOwnerRef(c, { name: 'web-3', uid: 'pod-uid' })).toBe(true);
    expect(hasStaleOwnerRef(c, { name: 'web-3' })).toBe(true);
    expect(hasStaleOwnerRef(c, { name: 'web-3', uid: 'old' })).toBe(false);
  });
});
