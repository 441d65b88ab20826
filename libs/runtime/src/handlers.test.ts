import { describe, expect, it } from 'vitest';
import type { Change, KubeObject } from '@regatta/kube';
import { Expectations } from './expectations.js';
import {
  deepEqual,
  enqueueForOwner,
  ignoreStatusOnlyUpdates,
  observeOwned,
  requestForObject,
} from './handlers.js';

const cs = (over: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): KubeObject =>
  ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: {
      name: 'web',
      namespace: 'ns',
      generation: 3,
      resourceVersion: '10',
      labels: { app: 'web' },
      ...meta,
    },
    spec: { replicas: 2 },
    status: { replicas: 2, observedGeneration: 3 },
    ...over,
  }) as KubeObject;
const update = (old: KubeObject, object: KubeObject): Change => ({ type: 'update', object, old });

describe('ignoreStatusOnlyUpdates', () => {
  it.each([
    [
      'a status write (new resourceVersion)',
      cs({ status: { replicas: 3 } }, { resourceVersion: '11' }),
      false,
    ],
    ['managedFields noise', cs({}, { resourceVersion: '11', managedFields: [{ manager: 'x' }] }), false],
    [
      'a spec change (new generation)',
      cs({ spec: { replicas: 3 } }, { generation: 4, resourceVersion: '11' }),
      true,
    ],
    ['a label change', cs({}, { labels: { app: 'web', tier: 'a' }, resourceVersion: '11' }), true],
    ['an annotation change', cs({}, { annotations: { a: 'b' }, resourceVersion: '11' }), true],
    ['a finalizer added', cs({}, { finalizers: ['x'], resourceVersion: '11' }), true],
    ['deletion started', cs({}, { deletionTimestamp: '2026-12-02T00:00:00Z', resourceVersion: '11' }), true],
  ])('%s → %s', (_what, next, passes) => {
    expect(ignoreStatusOnlyUpdates(update(cs(), next))).toBe(passes);
  });

  it('passes adds and deletes', () => {
    expect(ignoreStatusOnlyUpdates({ type: 'add', object: cs() })).toBe(true);
    expect(ignoreStatusOnlyUpdates({ type: 'delete', object: cs(), old: cs() })).toBe(true);
  });
});

describe('enqueueForOwner', () => {
  const owner = { group: 'apps.kruise.io', kind: 'CloneSet' };
  const ref = (name: string, kind = 'CloneSet', apiVersion = 'apps.kruise.io/v1alpha1') => ({
    apiVersion,
    kind,
    name,
    uid: `u-${name}`,
    controller: true,
  });
  const pod = (...refs: ReturnType<typeof ref>[]): KubeObject => ({
    metadata: { name: 'p', namespace: 'ns', ownerReferences: refs },
  });
  const map = enqueueForOwner(owner);

  it.each([
    ['its controller', { type: 'add', object: pod(ref('web')) }, [{ namespace: 'ns', name: 'web' }]],
    ['nothing for another kind', { type: 'add', object: pod(ref('rs', 'ReplicaSet', 'apps/v1')) }, []],
    ['nothing for another group', { type: 'add', object: pod(ref('web', 'CloneSet', 'other.io/v1')) }, []],
    ['nothing for an orphan', { type: 'add', object: pod() }, []],
    [
      'both owners when the controller changed',
      { type: 'update', object: pod(ref('b')), old: pod(ref('a')) },
      [
        { namespace: 'ns', name: 'b' },
        { namespace: 'ns', name: 'a' },
      ],
    ],
    [
      'the former owner of a released pod',
      { type: 'update', object: pod(), old: pod(ref('a')) },
      [{ namespace: 'ns', name: 'a' }],
    ],
  ] as [string, Change, unknown][])('%s', (_what, change, want) => {
    expect(map(change)).toEqual(want);
  });

  it('a cluster-scoped owner (ResourceDistribution) is requested without the owned object\'s namespace', () => {
    const rd = enqueueForOwner({ group: 'apps.kruise.io', kind: 'ResourceDistribution', namespaced: false });
    const copy = pod(ref('sample', 'ResourceDistribution', 'apps.kruise.io/v1beta1'));
    expect(rd({ type: 'update', object: copy, old: copy })).toEqual([{ name: 'sample' }]);
  });

  it('requestForObject names the object', () => {
    expect(requestForObject({ metadata: { name: 'n' } })).toEqual({ name: 'n' });
    expect(requestForObject(cs())).toEqual({ namespace: 'ns', name: 'web' });
  });
});

describe('observeOwned', () => {
  const pod = (meta: Record<string, unknown> = {}): KubeObject => ({
    metadata: { name: 'web-a', namespace: 'ns', resourceVersion: '7', ...meta },
  });

  it('observes creates and deletes, and updates only when asked', () => {
    const e = new Expectations();
    e.expectScale('ns/web', 'create', 'web-a');
    observeOwned(e, 'ns/web', { type: 'add', object: pod() }, { updates: false });
    expect(e.satisfiedScale('ns/web').satisfied).toBe(true);

    e.expectScale('ns/web', 'delete', 'web-a');
    observeOwned(
      e,
      'ns/web',
      { type: 'update', object: pod({ deletionTimestamp: 'x' }) },
      { updates: false },
    );
    expect(e.satisfiedScale('ns/web').satisfied).toBe(true);

    e.expectUpdated('ns/web', 'web-a', '9');
    observeOwned(e, 'ns/web', { type: 'update', object: pod({ resourceVersion: '9' }) }, { updates: false });
    expect(e.isUpdatedSatisfied('ns/web').satisfied).toBe(false);
    observeOwned(e, 'ns/web', { type: 'update', object: pod({ resourceVersion: '9' }) }, { updates: true });
    expect(e.isUpdatedSatisfied('ns/web').satisfied).toBe(true);
  });
});

describe('deepEqual', () => {
  it.each([
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [{ a: [1] }, { a: [1, 2] }, false],
    [{ a: {} }, { a: [] }, false],
    [null, {}, false],
  ])('%j = %j → %s', (a, b, want) => expect(deepEqual(a, b)).toBe(want));
});
