import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { Expectations } from '@regatta/runtime';
import { MemoryCluster, type ObjectReader } from '@regatta/workload';
import { UnitedDeploymentReconciler } from './reconciler.js';
import { demoUnitedDeployment as ud } from './testing/demo.js';
import type { UnitedDeployment } from './types.js';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const ctx = { reconcileID: 'r', log, signal: new AbortController().signal };
const empty: ObjectReader<KubeObject> = { get: () => undefined, byIndex: () => [], list: () => [] };

function setup(ud: UnitedDeployment, provider?: TracerProvider, now = () => new Date('2026-01-01T00:00:00Z')) {
  const cluster = new MemoryCluster();
  cluster.add(ud);
  const events: string[] = [];
  const reconciler = new UnitedDeploymentReconciler({
    uniteddeployments: cluster.reader('UnitedDeployment'),
    clonesets: cluster.reader('CloneSet'),
    statefulsets: empty,
    advancedstatefulsets: empty,
    deployments: empty,
    pods: empty,
    revisions: cluster.reader('ControllerRevision'),
    client: cluster.writer,
    expectations: new Expectations(),
    recorder: {
      normal: async (_o, reason, message) => void events.push(`${reason}: ${message}`),
      warning: async (_o, reason, message) => void events.push(`${reason}: ${message}`),
    },
    now,
    ...(provider ? { tracer: provider.getTracer('test') } : {}),
  });
  const run = () => reconciler.reconcile({ namespace: 'ns', name: 'demo' }, ctx);
  const sets = () =>
    Object.fromEntries(
      cluster
        .all<KubeObject & { spec: { replicas: number } }>('CloneSet')
        .map((c) => [c.metadata?.labels?.['apps.kruise.io/subset-name'], c.spec.replicas]),
    );
  const edit = (f: (u: UnitedDeployment) => void, generation?: number) => {
    const cur = cluster.get<UnitedDeployment>('UnitedDeployment', 'ns', 'demo') as UnitedDeployment;
    f(cur);
    if (generation !== undefined) cur.metadata = { ...cur.metadata, generation };
    cluster.add(cur);
  };
  return { cluster, events, run, sets, edit };
}

describe('UnitedDeploymentReconciler (in memory)', () => {
  it('creates one CloneSet per subset with the allocation and a revision, and writes the status', async () => {
    const t = setup(ud());
    await t.run();
    expect(t.sets()).toEqual({ a: 2, b: 2 });
    expect(t.cluster.all('ControllerRevision')).toHaveLength(1);
    const a = t.cluster.all<KubeObject & { spec: { updateStrategy: unknown } }>('CloneSet').find((c) => c.metadata?.name?.startsWith('demo-a-'));
    expect(a?.spec.updateStrategy).toEqual({ partition: 1 });
    // as upstream, the status counts the subsets found at the start of a round: the next round shows them
    await t.run();
    const status = t.cluster.get<UnitedDeployment>('UnitedDeployment', 'ns', 'demo')?.status;
    expect(status?.subsetStatuses?.map((s) => [s.name, s.replicas, s.partition])).toEqual([
      ['a', 2, 1],
      ['b', 2, 0],
    ]);
    expect(status?.subsetReplicas).toEqual({ a: 2, b: 2 });
    expect(status?.updatedRevision).toBe(t.cluster.all('ControllerRevision')[0]?.metadata?.name);
    expect(t.events).toContain('SuccessfulUpdateSubset: Create 2 Subset (CloneSet)');
  });

  it('scales the subsets, removes a subset that left the spec, and deletes a duplicate', async () => {
    const t = setup(ud());
    await t.run();
    t.edit((u) => {
      u.spec.replicas = 6;
    });
    await t.run();
    expect(t.sets()).toEqual({ a: 3, b: 3 });

    const dup = structuredClone(t.cluster.all('CloneSet').find((c) => c.metadata?.name?.startsWith('demo-b-')) as KubeObject);
    dup.metadata = { ...dup.metadata, name: 'demo-b-dup', uid: 'dup-uid', creationTimestamp: '2030-01-01T00:00:00Z' };
    t.cluster.add(dup);
    t.edit((u) => {
      u.spec.topology = { subsets: [{ name: 'a' }] };
    });
    await t.run();
    expect(t.cluster.written('delete', 'CloneSet').map((w) => w.name).sort()).toEqual(
      expect.arrayContaining(['demo-b-dup']),
    );
    expect(t.sets()).toEqual({ a: 6 });
  });

  it('a template change makes a new revision and rewrites every subset with it', async () => {
    const t = setup(ud());
    await t.run();
    t.edit((u) => {
      (u.spec.template!.cloneSetTemplate!.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]!.image = 'nginx:2';
    });
    await t.run();
    const revisions = t.cluster.all('ControllerRevision').map((r) => r.metadata?.name);
    expect(revisions).toHaveLength(2);
    const labels = t.cluster.all('CloneSet').map((c) => c.metadata?.labels?.['apps.kruise.io/controller-revision-hash']);
    expect(new Set(labels).size).toBe(1);
    expect(revisions).toContain(labels[0]);
    expect(t.cluster.get<UnitedDeployment>('UnitedDeployment', 'ns', 'demo')?.status?.conditions).toContainEqual(
      expect.objectContaining({ type: 'UnitedDeploymentUpdated', status: 'False', reason: 'UnitedDeploymentRevisionUpdating' }),
    );
  });

  it('traces each change once across its rounds: subset spans under it, a new trace per generation, the end once converged', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const t = setup(ud(), provider, () => new Date(clock));
    const record = () =>
      JSON.parse(t.cluster.get<UnitedDeployment>('UnitedDeployment', 'ns', 'demo')?.metadata?.annotations?.['regatta.dev/rollout-trace'] ?? '{}') as {
        traceparent: string;
        generation: number;
        done?: boolean;
      };
    await t.run();
    await t.run();
    const created = record();
    expect(created).toMatchObject({ generation: 1 });
    expect(created.done).toBeUndefined();
    t.edit((u) => {
      (u.spec.template!.cloneSetTemplate!.spec as { template: { spec: { containers: { image: string }[] } } }).template.spec.containers[0]!.image = 'nginx:2';
    }, 2);
    await t.run();
    const changed = record();
    expect(changed.generation).toBe(2);
    // subset a's CloneSet begins its own rollout: linked once, however many rounds see it
    const subsetTrace = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
    const cs = t.cluster.all<KubeObject>('CloneSet').find((c) => c.metadata?.labels?.['apps.kruise.io/subset-name'] === 'a')!;
    cs.metadata!.annotations = {
      ...cs.metadata!.annotations,
      'regatta.dev/rollout-trace': JSON.stringify({ traceparent: subsetTrace, from: 'x', to: 'y', start: '2026-01-01T00:00:00Z' }),
    };
    t.cluster.add(cs);
    await t.run();
    await t.run();
    // scaled to zero a minute later: nothing left to update, so the change ends in its own round
    clock += 60_000;
    t.edit((u) => void (u.spec.replicas = 0), 3);
    await t.run();
    expect(record()).toMatchObject({ generation: 3, done: true });
    await provider.forceFlush();
    const traceOf = (traceparent: string) => traceparent.split('-')[1];
    const byTrace = (traceparent: string) =>
      exporter
        .getFinishedSpans()
        .filter((sp) => sp.spanContext().traceId === traceOf(traceparent))
        .map((sp) => `${sp.name} ${String(sp.attributes['uniteddeployment.subset'] ?? '')}`.trim())
        .sort();
    // the creation's two rounds are one trace (ended when the template change superseded it)
    expect(byTrace(created.traceparent)).toEqual([
      'uniteddeployment.rollout',
      'uniteddeployment.subset-create a',
      'uniteddeployment.subset-create b',
    ]);
    expect(byTrace(changed.traceparent)).toEqual([
      'uniteddeployment.rollout',
      'uniteddeployment.subset-rollout a',
      'uniteddeployment.subset-update a',
      'uniteddeployment.subset-update b',
    ]);
    const link = exporter.getFinishedSpans().find((sp) => sp.name === 'uniteddeployment.subset-rollout')?.links[0];
    expect(link?.context.traceId).toBe('a'.repeat(32));
    expect(byTrace(record().traceparent)).toEqual([
      'uniteddeployment.rollout',
      'uniteddeployment.subset-update a',
      'uniteddeployment.subset-update b',
    ]);
  });

  it('creates subsets in slow-start batches: a failed first create stops the others', async () => {
    const u = ud();
    u.spec.topology = { subsets: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] };
    const t = setup(u);
    t.cluster.failOn((w) => (w.verb === 'create' && w.kind === 'CloneSet' ? new Error('quota exceeded') : undefined));
    await expect(t.run()).rejects.toThrow('fail to create Subset (CloneSet) a: quota exceeded');
    expect(t.cluster.written('create', 'CloneSet')).toHaveLength(1);
    expect(t.events).toContain('FailedUpdateSubset: fail to create Subset (CloneSet) a: quota exceeded');
    t.cluster.failOn(undefined);
    await t.run();
    expect(Object.values(t.sets()).sort()).toEqual([1, 1, 2]);
    expect(t.events).toContain('SuccessfulUpdateSubset: Create 3 Subset (CloneSet)');
  });

  describe('orphaned subset workloads (docs/adr/0029)', () => {
    const ownerUids = (t: ReturnType<typeof setup>, kind: string) =>
      t.cluster.all(kind).map((o) => o.metadata?.ownerReferences?.map((r) => r.uid) ?? []);
    /** The UnitedDeployment deleted with `propagationPolicy: Orphan` and created again (a new uid). */
    const orphanAndRecreate = (t: ReturnType<typeof setup>) => {
      for (const kind of ['CloneSet', 'ControllerRevision']) {
        for (const o of t.cluster.all(kind)) t.cluster.add({ ...o, metadata: { ...o.metadata, ownerReferences: [] } });
      }
      t.edit((u) => {
        u.metadata = { ...u.metadata, uid: 'ud-2' };
        delete u.status;
      });
    };

    it('adopts the subsets of a re-created UnitedDeployment: no subset created, nothing deleted', async () => {
      const t = setup(ud());
      await t.run();
      const before = t.cluster.all('CloneSet').map((c) => c.metadata?.name).sort();
      orphanAndRecreate(t);
      const writes = t.cluster.writes.length;
      await t.run();
      await t.run();
      const after = t.cluster.writes.slice(writes);
      expect(after.filter((w) => w.verb === 'delete' || (w.verb === 'create' && w.kind === 'CloneSet'))).toEqual([]);
      expect(t.cluster.all('CloneSet').map((c) => c.metadata?.name).sort()).toEqual(before);
      expect(ownerUids(t, 'CloneSet')).toEqual([['ud-2'], ['ud-2']]);
      // a CloneSet template's revision has no labels the selector matches: as upstream it is not adopted, the equal
      // revision is found again by name (the create answers AlreadyExists) and reused
      expect(t.cluster.all('ControllerRevision')).toHaveLength(1);
      expect(ownerUids(t, 'ControllerRevision')).toEqual([[]]);
      // CloneSets are custom resources: a JSON merge patch guarded by the resourceVersion
      const adopt = after.find((w) => w.verb === 'patch' && w.kind === 'CloneSet')?.body as { metadata: Record<string, unknown> };
      expect(adopt.metadata['resourceVersion']).toBeDefined();
      expect(t.sets()).toEqual({ a: 2, b: 2 });
      expect(t.cluster.get<UnitedDeployment>('UnitedDeployment', 'ns', 'demo')?.status?.subsetStatuses?.map((x) => x.replicas)).toEqual([2, 2]);
    });

    it('adopts an orphaned revision named for the UnitedDeployment that matches its selector', async () => {
      const t = setup(ud());
      await t.run();
      const [rev] = t.cluster.all('ControllerRevision');
      t.cluster.add({ ...rev, metadata: { ...rev?.metadata, labels: { ...rev?.metadata?.labels, app: 'demo' } } } as KubeObject);
      t.cluster.add({ ...(rev as KubeObject), metadata: { ...rev?.metadata, name: 'other-1', uid: 'other', labels: { app: 'demo' } } });
      orphanAndRecreate(t);
      await t.run();
      expect(t.cluster.get('ControllerRevision', 'ns', rev?.metadata?.name ?? '')?.metadata?.ownerReferences?.[0]?.uid).toBe('ud-2');
      expect(t.cluster.get('ControllerRevision', 'ns', 'other-1')?.metadata?.ownerReferences).toEqual([]);
    });

    it('waits, creating nothing, while subsets are still controlled by a former UnitedDeployment of the same name', async () => {
      const t = setup(ud());
      await t.run();
      t.edit((u) => {
        u.metadata = { ...u.metadata, uid: 'ud-2' };
        delete u.status;
      });
      const result = await t.run();
      expect(result.requeueAfterMs).toBeGreaterThan(0);
      expect(t.cluster.written('create', 'CloneSet')).toHaveLength(2);
      // the garbage collector orphans them: adopted
      for (const o of t.cluster.all('CloneSet')) t.cluster.add({ ...o, metadata: { ...o.metadata, ownerReferences: [] } });
      await t.run();
      expect(ownerUids(t, 'CloneSet')).toEqual([['ud-2'], ['ud-2']]);
      expect(t.cluster.written('create', 'CloneSet')).toHaveLength(2);
    });

    it('adopts only workloads of the template kind that carry a subset name and match the selector', async () => {
      const t = setup(ud());
      await t.run();
      const a = t.cluster.all('CloneSet').find((c) => c.metadata?.name?.startsWith('demo-a-')) as KubeObject;
      const strays: { name: string; labels: Record<string, string> }[] = [
        { name: 'no-subset-name', labels: { app: 'demo' } },
        { name: 'other-app', labels: { app: 'other', 'apps.kruise.io/subset-name': 'a' } },
      ];
      for (const x of strays) {
        t.cluster.add({ ...structuredClone(a), metadata: { name: x.name, namespace: 'ns', labels: x.labels, creationTimestamp: '2020-01-01T00:00:00Z' } });
      }
      await t.run();
      expect(t.cluster.get('CloneSet', 'ns', 'no-subset-name')?.metadata?.ownerReferences).toBeUndefined();
      expect(t.cluster.get('CloneSet', 'ns', 'other-app')?.metadata?.ownerReferences).toBeUndefined();
      expect(t.cluster.written('delete', 'CloneSet')).toEqual([]);
    });

    it('an orphan of a subset is adopted as the older duplicate: the newer one is deleted', async () => {
      const t = setup(ud());
      await t.run();
      const a = t.cluster.all('CloneSet').find((c) => c.metadata?.name?.startsWith('demo-a-')) as KubeObject;
      t.cluster.add({ ...a, metadata: { ...a.metadata, creationTimestamp: '2026-01-01T00:00:00Z' } });
      t.cluster.add({ ...structuredClone(a), metadata: { ...structuredClone(a.metadata), name: 'demo-a-old', uid: 'old', ownerReferences: [], creationTimestamp: '2020-01-01T00:00:00Z' } });
      await t.run();
      expect(t.cluster.get('CloneSet', 'ns', 'demo-a-old')?.metadata?.ownerReferences?.[0]?.uid).toBe('ud-1');
      expect(t.cluster.written('delete', 'CloneSet').map((w) => w.name)).toEqual([a.metadata?.name]);
    });

    it('releases a subset workload whose labels no longer match the selector, and creates the subset anew', async () => {
      const t = setup(ud());
      await t.run();
      const a = t.cluster.all('CloneSet').find((c) => c.metadata?.name?.startsWith('demo-a-')) as KubeObject;
      t.cluster.add({ ...a, metadata: { ...a.metadata, labels: { ...a.metadata?.labels, app: 'taken' } } });
      await t.run();
      expect(t.cluster.get('CloneSet', 'ns', a.metadata?.name ?? '')?.metadata?.ownerReferences ?? []).toEqual([]);
      expect(t.cluster.written('create', 'CloneSet')).toHaveLength(3);
    });
  });
});
