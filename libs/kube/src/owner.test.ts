import { describe, expect, it } from 'vitest';
import type { KubeObject, OwnerReference } from './meta.js';
import {
  type ClaimDecision,
  type ClaimOwner,
  OwnerReferenceError,
  adoptMergePatch,
  adoptPatch,
  claimOwnerOf,
  controllerRef,
  decideClaim,
  isClaimed,
  isControlledBy,
  newControllerRef,
  planClaims,
  releaseMergePatch,
  releasePatch,
} from './owner.js';

const cloneset: KubeObject = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: 'ns', uid: 'owner-uid' },
};
const ref = (uid: string, controller = true): OwnerReference => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'x',
  uid,
  controller,
});
const pod = (opts: {
  refs?: OwnerReference[];
  labels?: Record<string, string>;
  deleting?: boolean;
  ns?: string;
}): KubeObject => ({
  metadata: {
    name: 'p',
    namespace: opts.ns ?? 'ns',
    uid: 'pod-uid',
    labels: opts.labels ?? { app: 'web' },
    ownerReferences: opts.refs,
    deletionTimestamp: opts.deleting ? '2024-01-01T00:00:00Z' : undefined,
  },
});

describe('controller references', () => {
  it('finds the controller among owner references', () => {
    const p = pod({ refs: [ref('a', false), ref('b')] });
    expect(controllerRef(p)?.uid).toBe('b');
    expect(controllerRef(pod({ refs: [ref('a', false)] }))).toBeUndefined();
    expect(controllerRef({})).toBeUndefined();
  });

  it('compares by UID', () => {
    const p = pod({ refs: [ref('owner-uid')] });
    expect(isControlledBy(p, cloneset)).toBe(true);
    expect(isControlledBy(p, { uid: 'owner-uid' })).toBe(true);
    expect(isControlledBy(p, { uid: 'other' })).toBe(false);
    expect(isControlledBy(pod({ refs: [ref('owner-uid', false)] }), cloneset)).toBe(false);
  });

  it('builds a controller reference', () => {
    expect(newControllerRef(cloneset)).toEqual({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      name: 'web',
      uid: 'owner-uid',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('takes apiVersion/kind from the argument for list items', () => {
    const item = { metadata: cloneset.metadata };
    expect(() => newControllerRef(item)).toThrow(OwnerReferenceError);
    expect(
      newControllerRef(item, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet' }).apiVersion,
    ).toBe('apps.kruise.io/v1beta1');
  });
});

describe('decideClaim (ClaimObject)', () => {
  const live: ClaimOwner = { uid: 'owner-uid', namespace: 'ns' };
  const deleting: ClaimOwner = { ...live, deletionTimestamp: '2024-01-01T00:00:00Z' };
  const selector = { matchLabels: { app: 'web' } };
  const cases: [string, ClaimOwner, KubeObject, ClaimDecision][] = [
    ['owned and matching → keep', live, pod({ refs: [ref('owner-uid')] }), 'keep'],
    ['owned and matching while owner deleting → keep', deleting, pod({ refs: [ref('owner-uid')] }), 'keep'],
    [
      'owned, not matching → release',
      live,
      pod({ refs: [ref('owner-uid')], labels: { app: 'db' } }),
      'release',
    ],
    [
      'owned, not matching, owner deleting → ignore',
      deleting,
      pod({ refs: [ref('owner-uid')], labels: {} }),
      'ignore',
    ],
    ['owned by another → ignore', live, pod({ refs: [ref('other')] }), 'ignore'],
    ['owned by another, not matching → ignore', live, pod({ refs: [ref('other')], labels: {} }), 'ignore'],
    ['orphan matching → adopt', live, pod({}), 'adopt'],
    ['orphan with a non-controller owner → adopt', live, pod({ refs: [ref('owner-uid', false)] }), 'adopt'],
    ['orphan not matching → ignore', live, pod({ labels: { app: 'db' } }), 'ignore'],
    ['orphan, owner deleting → ignore', deleting, pod({}), 'ignore'],
    ['orphan being deleted → ignore', live, pod({ deleting: true }), 'ignore'],
    ['orphan in another namespace → ignore', live, pod({ ns: 'other' }), 'ignore'],
    ['cluster-scoped owner may adopt in any namespace', { uid: 'owner-uid' }, pod({ ns: 'other' }), 'adopt'],
  ];
  it.each(cases)('%s', (_name, owner, candidate, expected) => {
    expect(decideClaim(owner, candidate, selector)).toBe(expected);
  });

  it('accepts a predicate instead of a selector', () => {
    expect(decideClaim(live, pod({}), (o) => o.metadata?.name === 'p')).toBe('adopt');
    expect(decideClaim(live, pod({}), () => false)).toBe('ignore');
  });

  it('a null selector matches nothing: owned objects are released', () => {
    expect(decideClaim(live, pod({ refs: [ref('owner-uid')] }), null)).toBe('release');
  });

  it('claimed means keep or adopt', () => {
    expect((['keep', 'adopt', 'release', 'ignore'] as ClaimDecision[]).map(isClaimed)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('reads the owner fields', () => {
    expect(claimOwnerOf(cloneset)).toEqual({
      uid: 'owner-uid',
      namespace: 'ns',
      deletionTimestamp: undefined,
    });
    expect(() => claimOwnerOf({ metadata: {} })).toThrow(OwnerReferenceError);
  });
});

describe('planClaims (ClaimObjects)', () => {
  it('sorts candidates into keep / adopt / release, leaves out the ignored, counts a UID once', () => {
    const named = (name: string, o: KubeObject): KubeObject => ({
      metadata: { ...o.metadata, name, uid: name },
    });
    const kept = named('kept', pod({ refs: [ref('owner-uid')] }));
    const orphan = named('orphan', pod({}));
    const moved = named('moved', pod({ refs: [ref('owner-uid')], labels: { app: 'db' } }));
    const foreign = named('foreign', pod({ refs: [ref('other')] }));
    const plan = planClaims({ uid: 'owner-uid', namespace: 'ns' }, [kept, orphan, moved, foreign, orphan], {
      matchLabels: { app: 'web' },
    });
    expect(plan).toEqual({ keep: [kept], adopt: [orphan], release: [moved] });
  });
});

describe('adopt / release patches', () => {
  const controller = newControllerRef(cloneset);
  const other: OwnerReference = { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'cm' };

  it('strategic patches pin the UID', () => {
    expect(adoptPatch(pod({}), controller)).toEqual({
      metadata: { ownerReferences: [controller], uid: 'pod-uid' },
    });
    expect(releasePatch(pod({}), 'owner-uid')).toEqual({
      metadata: { ownerReferences: [{ $patch: 'delete', uid: 'owner-uid' }], uid: 'pod-uid' },
    });
  });

  it('merge patches write the whole list', () => {
    const p0 = pod({ refs: [other] });
    const p = { ...p0, metadata: { ...p0.metadata, resourceVersion: '7' } };
    expect(adoptMergePatch(p, controller)).toEqual({
      metadata: { ownerReferences: [other, controller], uid: 'pod-uid', resourceVersion: '7' },
    });
    const owned = pod({ refs: [other, controller] });
    expect(releaseMergePatch(owned, 'owner-uid')).toEqual({
      metadata: { ownerReferences: [other], uid: 'pod-uid', resourceVersion: undefined },
    });
    expect(releaseMergePatch(pod({ refs: [controller] }), 'owner-uid').metadata).toMatchObject({
      ownerReferences: null,
    });
  });
});
