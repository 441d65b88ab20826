import { KIND_TABLE } from '@regatta/kube';
import { describe, expect, it } from 'vitest';
import { type FieldSet, resourceId } from '@regatta/bus';
import type { Change, KubeObject } from '@regatta/kube';
import { Expectations, type Request } from '@regatta/runtime';
import { ControllerBuilder, type Reader } from './declaration.js';
import {
  cachesOf,
  cachesOfAll,
  eventHandlers,
  kindsOfAll,
  kindsToRegister,
  mergeWebhooks,
  requestInScope,
  queuePriority,
} from './derive.js';

const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid: 'u',
  controller: true,
};
const pod = (meta: Record<string, unknown> = {}): KubeObject => ({
  metadata: { name: 'web-a', namespace: 'ns', resourceVersion: '5', ownerReferences: [owner], ...meta },
});
const cs = (meta: Record<string, unknown> = {}, status: unknown = {}): KubeObject =>
  ({
    metadata: { name: 'web', namespace: 'ns', generation: 1, resourceVersion: '1', ...meta },
    spec: {},
    status,
  }) as KubeObject;

function reader(objects: KubeObject[]): Reader<KubeObject> {
  return {
    get: (ns, name) => objects.find((o) => o.metadata?.namespace === ns && o.metadata?.name === name),
    byIndex: () => [],
    list: (opts = {}) =>
      objects.filter((o) => opts.namespace === undefined || o.metadata?.namespace === opts.namespace),
  };
}

const orphanMapper = (c: Change, r: { clonesets: Reader<KubeObject> }): Request[] =>
  c.object.metadata?.ownerReferences?.length
    ? []
    : r.clonesets
        .list({ namespace: c.object.metadata?.namespace ?? '' })
        .map((o) => ({ namespace: 'ns', name: o.metadata?.name ?? '' }));

const decl = ControllerBuilder.controller({ name: 'cloneset', eventComponent: 'cloneset-controller' })
  .for('clonesets', KIND_TABLE.clonesets)
  .owns('pods', KIND_TABLE.pods, { keep: (o) => o.metadata?.name !== 'skip', expectations: 'scale-and-updates' })
  .owns('pvcs', KIND_TABLE.persistentvolumeclaims, { expectations: 'scale' })
  .owns('revisions', KIND_TABLE.controllerrevisions)
  .watches('pods', KIND_TABLE.pods, orphanMapper, { keep: (o) => o.metadata?.name !== 'other' })
  .reconciler(() => ({ reconcile: () => Promise.resolve({}) }));

describe('derivations of a declaration', () => {
  it('registers each kind once, the For kind first, namespaces when scoped', () => {
    expect(kindsToRegister(decl, false).map(resourceId)).toEqual([
      'clonesets.v1alpha1.apps.kruise.io',
      'pods.v1',
      'persistentvolumeclaims.v1',
      'controllerrevisions.v1.apps',
    ]);
    expect(kindsToRegister(decl, true).map(resourceId).at(-1)).toBe('namespaces.v1');
  });

  it('builds one cache per reader name; a shared cache keeps what every keep accepts', () => {
    const caches = cachesOf(decl, false);
    expect(caches.map((c) => c.name)).toEqual(['clonesets', 'pods', 'pvcs', 'revisions']);
    const pods = caches.find((c) => c.name === 'pods')!;
    expect(pods.keep?.(pod())).toBe(true);
    expect(pods.keep?.(pod({ name: 'skip' }))).toBe(false);
    expect(pods.keep?.(pod({ name: 'other' }))).toBe(false);
    expect(caches.find((c) => c.name === 'pvcs')!.keep).toBeUndefined();
  });

  it('refuses one reader name for two kinds', () => {
    expect(() =>
      ControllerBuilder.controller({ name: 'x', eventComponent: 'x' })
        .for('things', KIND_TABLE.clonesets)
        .owns('things', KIND_TABLE.pods)
        .reconciler(() => ({ reconcile: () => Promise.resolve({}) })),
    ).toThrow(/declared for clonesets and pods/);
  });
});

describe('event handlers of a declaration', () => {
  const setup = () => {
    const expectations = new Expectations();
    const readers = { clonesets: reader([cs()]), pods: reader([]), pvcs: reader([]), revisions: reader([]) };
    return { expectations, handlers: eventHandlers(decl, { expectations, readers }) };
  };

  it('For: enqueues the object, but not for a status-only update', () => {
    const { handlers } = setup();
    const h = handlers.get('clonesets')!;
    expect(h({ type: 'add', object: cs() })).toEqual([{ namespace: 'ns', name: 'web' }]);
    expect(h({ type: 'update', old: cs(), object: cs({ resourceVersion: '2' }, { replicas: 1 }) })).toEqual(
      [],
    );
    expect(
      h({ type: 'update', old: cs(), object: cs({ resourceVersion: '2', generation: 2 }) }),
    ).toHaveLength(1);
  });

  it('Owns: enqueues the owner and observes its expectations under the request key', () => {
    const { handlers, expectations } = setup();
    expectations.expectScale('ns/web', 'create', 'web-a');
    expectations.expectUpdated('ns/web', 'web-a', '9');
    expect(handlers.get('pods')!({ type: 'add', object: pod() })).toEqual([{ namespace: 'ns', name: 'web' }]);
    expect(expectations.satisfiedScale('ns/web').satisfied).toBe(true);
    handlers.get('pods')!({ type: 'update', old: pod(), object: pod({ resourceVersion: '9' }) });
    expect(expectations.isUpdatedSatisfied('ns/web').satisfied).toBe(true);
  });

  it('Owns without update expectations leaves them alone; revisions only enqueue', () => {
    const { handlers, expectations } = setup();
    expectations.expectUpdated('ns/web', 'web-a', '9');
    handlers.get('pvcs')!({ type: 'update', old: pod(), object: pod({ resourceVersion: '9' }) });
    expect(expectations.isUpdatedSatisfied('ns/web').satisfied).toBe(false);
    expect(handlers.get('revisions')!({ type: 'delete', object: pod() })).toEqual([
      { namespace: 'ns', name: 'web' },
    ]);
  });

  it('Owns of a cluster-scoped For kind: the owner is requested by name alone (one key per owner)', () => {
    const rd = ControllerBuilder.controller({ name: 'resourcedistribution', eventComponent: 'rd' })
      .for('distributions', KIND_TABLE.resourcedistributions)
      .owns('configmaps', KIND_TABLE.configmaps)
      .reconciler(() => ({ reconcile: () => Promise.resolve({}) }));
    const h = eventHandlers(rd, { expectations: new Expectations(), readers: {} }).get('configmaps')!;
    const copy = {
      metadata: {
        name: 'c',
        namespace: 'ns-1',
        ownerReferences: [
          {
            apiVersion: 'apps.kruise.io/v1beta1',
            kind: 'ResourceDistribution',
            name: 'sample',
            uid: 'u',
            controller: true,
          },
        ],
      },
    };
    expect(h({ type: 'add', object: copy })).toEqual([{ name: 'sample' }]);
  });

  it('Watches: the mapping function reads the declared readers; results are de-duplicated', () => {
    const { handlers } = setup();
    const orphan = { metadata: { name: 'o', namespace: 'ns' } };
    expect(handlers.get('pods')!({ type: 'add', object: orphan })).toEqual([
      { namespace: 'ns', name: 'web' },
    ]);
  });
});

describe('requestInScope', () => {
  const scope = { matchLabels: { team: 'a' } };
  const cluster = {
    group: 'apps.kruise.io',
    version: 'v1beta1',
    kind: 'SidecarSet',
    plural: 'sidecarsets',
    namespaced: false,
  };
  const objs: Record<string, KubeObject> = {
    mine: { metadata: { name: 'mine', labels: { team: 'a' } } },
    theirs: { metadata: { name: 'theirs' } },
  };
  const reader = { get: (_ns: string | undefined, n: string) => objs[n], byIndex: () => [], list: () => [] };
  const ns = (n: string): Record<string, string> => (n === 'in' ? { team: 'a' } : {});
  it('judges namespaced requests by their namespace, cluster-scoped For objects by their own labels', () => {
    expect(requestInScope(undefined, { name: 'theirs' }, cluster, reader, ns)).toBe(true);
    expect(requestInScope(scope, { name: 'mine' }, cluster, reader, ns)).toBe(true);
    expect(requestInScope(scope, { name: 'theirs' }, cluster, reader, ns)).toBe(false);
    expect(requestInScope(scope, { name: 'gone' }, cluster, reader, ns)).toBe(true);
    expect(requestInScope(scope, { namespace: 'in', name: 'x' }, KIND_TABLE.pods, reader, ns)).toBe(true);
    expect(requestInScope(scope, { namespace: 'out', name: 'x' }, KIND_TABLE.pods, reader, ns)).toBe(false);
  });
});

describe('several declarations in one program', () => {
  const a = ControllerBuilder.controller({ name: 'a', eventComponent: 'a' })
    .for('clonesets', KIND_TABLE.clonesets)
    .watches('pods', KIND_TABLE.pods, () => [], { keep: (o) => o.metadata?.name === 'x' })
    .reconciler(() => ({ reconcile: async () => ({}) }));
  const b = ControllerBuilder.controller({ name: 'b', eventComponent: 'b' })
    .for('nodes', KIND_TABLE.nodes)
    .watches('pods', KIND_TABLE.pods, () => [], { keep: (o) => o.metadata?.name === 'y' })
    .reconciler(() => ({ reconcile: async () => ({}) }));

  it('share one cache per reader name that keeps what any of them keeps', () => {
    const caches = cachesOfAll([a, b], false);
    expect(caches.map((c) => c.name)).toEqual(['clonesets', 'pods', 'nodes']);
    const pods = caches.find((c) => c.name === 'pods')!;
    expect(['x', 'y', 'z'].map((name) => pods.keep!({ metadata: { name } }))).toEqual([true, true, false]);
    expect(kindsOfAll([a, b], false).map(resourceId)).toEqual([
      'clonesets.v1alpha1.apps.kruise.io',
      'pods.v1',
      'nodes.v1',
    ]);
  });

  it('project a reader to the union of the fields each declares; one that declares none keeps every field', () => {
    const withFields = (name: string, project: FieldSet, twice?: FieldSet) => {
      const d = ControllerBuilder.controller({ name, eventComponent: name })
        .for(`${name}s`, KIND_TABLE.clonesets)
        .owns('pods', KIND_TABLE.pods, { project });
      return (twice ? d.watches('pods', KIND_TABLE.pods, () => [], { project: twice }) : d).reconciler(() => ({
        reconcile: async () => ({}),
      }));
    };
    const spec = { spec: { nodeName: true } } as const;
    const status = { status: { phase: true } } as const;
    const projectOf = (decls: Parameters<typeof cachesOfAll>[0]) =>
      cachesOfAll(decls, false).find((c) => c.name === 'pods')!.project;
    expect(projectOf([withFields('x', spec)])).toEqual(spec);
    expect(cachesOf(withFields('x', spec, status), false).find((c) => c.name === 'pods')!.project).toEqual({
      ...spec,
      ...status,
    });
    expect(projectOf([withFields('x', spec), withFields('y', status)])).toEqual({ ...spec, ...status });
    // `a` reads pods whole
    expect(projectOf([withFields('x', spec), a])).toBeUndefined();
    expect(projectOf([a, withFields('x', spec)])).toBeUndefined();
    const noFields = ControllerBuilder.controller({ name: 'z', eventComponent: 'z' })
      .for('zs', KIND_TABLE.clonesets)
      .owns('pods', KIND_TABLE.pods, { project: spec })
      .watches('pods', KIND_TABLE.pods, () => [])
      .reconciler(() => ({ reconcile: async () => ({}) }));
    expect(cachesOf(noFields, false).find((c) => c.name === 'pods')!.project).toBeUndefined();
  });

  it('refuse one reader name for two kinds', () => {
    const c = ControllerBuilder.controller({ name: 'c', eventComponent: 'c' })
      .for('pods', KIND_TABLE.nodes)
      .reconciler(() => ({ reconcile: async () => ({}) }));
    expect(() => cachesOfAll([a, c], false)).toThrow(/declared for pods and nodes/);
  });

  it('serve every route and configuration from one webhook server', () => {
    const route = (path: string) => ({ path, register: () => undefined });
    const merged = mergeWebhooks([
      { routes: [route('/a')], configurations: () => [{ metadata: { name: 'a' } }] },
      { routes: [route('/b')], configurations: () => [{ metadata: { name: 'b' } }] },
    ]);
    expect(merged.routes.map((r) => r.path)).toEqual(['/a', '/b']);
    expect(merged.configurations('u', 'ca', undefined).map((o) => o.metadata?.name)).toEqual(['a', 'b']);
  });

  it('follows the readers any declaration follows, each once', () => {
    const merged = mergeWebhooks([
      { routes: [], configurations: () => [], followedReaders: ['sidecarsets'] },
      { routes: [], configurations: () => [] },
      { routes: [], configurations: () => [], followedReaders: ['sidecarsets', 'namespaces'] },
    ]);
    expect(merged.followedReaders).toEqual(['sidecarsets', 'namespaces']);
  });
});

describe('queuePriority: where the request of a change waits (docs/adr/0066, 0067)', () => {
  const job = (deleting: boolean): KubeObject => ({
    apiVersion: 'apps.kruise.io/v1beta1',
    kind: 'ImagePullJob',
    metadata: {
      namespace: 'ns',
      name: 'a',
      ...(deleting ? { deletionTimestamp: '2026-12-06T12:00:00Z' } : {}),
    },
  });
  const self: Request = { namespace: 'ns', name: 'a' };
  const other: Request = { namespace: 'ns', name: 'b' };
  const changed = (deleting: boolean): Change => ({ type: 'update', object: job(deleting) });
  const atStart = (deleting: boolean): Change => ({
    type: 'add',
    object: job(deleting),
    inInitialList: true,
  });
  const gone: Change = { type: 'delete', object: job(true) };
  it.each([
    ['the For object marked for deletion, changed now', changed(true), self, true, 'high'],
    ['the For object marked for deletion, found at start', atStart(true), self, true, 'high'],
    ['the For object changed now', changed(false), self, true, 'normal'],
    ['the For object found at start', atStart(false), self, true, 'low'],
    ['the For object gone (its delete event)', gone, self, true, 'normal'],
    ['another object a deleting For object maps to', changed(true), other, true, 'normal'],
    ['a deleting object of another cache', changed(true), self, false, 'normal'],
    ['an object of another cache found at start', atStart(false), self, false, 'low'],
  ] as [string, Change, Request, boolean, string][])('%s', (_, change, req, forCache, want) => {
    expect(queuePriority(change, req, forCache)).toBe(want);
  });
});
