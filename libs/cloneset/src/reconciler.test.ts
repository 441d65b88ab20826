// The CloneSet reconciler without a cluster: in-memory readers and a recording writer (MemoryCluster), a fresh
// Expectations per round (the bus handlers that observe our writes are not part of this test), a kubelet() that
// schedules pods and makes them ready. The scenario tests (apps/cloneset/src/*.int.test.ts) run it for real.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { Pod } from '@regatta/api';
import { ForbiddenError, type EventRecorder, type KubeObject } from '@regatta/kube';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, ROLLOUT_TRACE_ANNOTATION, RolloutTracer } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { CloneSetReconciler } from './reconciler.js';

const NS = 'ns';
const T0 = new Date('2026-12-02T12:00:00Z');
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };

type Obj = KubeObject & { spec?: unknown; status?: Record<string, unknown> };

const cloneSet = (over: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  metadata: { name: 'web', namespace: NS, uid: 'cs-uid', generation: 1 },
  spec: {
    replicas: 3,
    revisionHistoryLimit: 10,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    },
    updateStrategy: { type: 'InPlaceIfPossible', partition: 0, maxUnavailable: 3, maxSurge: 0 },
    scaleStrategy: {},
    ...over,
  },
});

function world(options: { tracer?: RolloutTracer; cloneSetCache?: () => Obj } = {}) {
  const c = new MemoryCluster();
  const events: string[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string) => void events.push(reason),
    warning: async (_o: KubeObject, reason: string) => void events.push(reason),
  } as unknown as EventRecorder;
  let now = T0;
  // a seeded generator: instance ids differ, runs repeat
  let seed = 42;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const reconciler = (expectations: Expectations) =>
    new CloneSetReconciler({
      client: c.writer,
      clonesets: options.cloneSetCache
        ? { ...c.reader('CloneSet'), get: options.cloneSetCache }
        : c.reader('CloneSet'),
      pods: c.reader('Pod'),
      pvcs: c.reader('PersistentVolumeClaim'),
      revisions: c.reader('ControllerRevision'),
      expectations,
      recorder,
      now: () => now,
      random,
      ...(options.tracer ? { rollouts: options.tracer } : {}),
    });
  return {
    c,
    events,
    /** One reconcile, with expectations already met (the cache shows every earlier write here). */
    round: async () => {
      const from = c.writes.length;
      const result = await reconciler(new Expectations()).reconcile({ namespace: NS, name: 'web' }, ctx);
      return { result, writes: c.writes.slice(from) };
    },
    /** One reconciler for several rounds (what it keeps between rounds is kept). */
    reconciler: () => reconciler(new Expectations()),
    tick: (ms: number) => (now = new Date(now.getTime() + ms)),
    pods: () => c.all<Pod>('Pod'),
    cs: () => c.get('CloneSet', NS, 'web') as Obj,
    /** Schedules every pod and makes it run and be ready with the images of its spec. */
    kubelet: () => {
      for (const p of c.all<Pod>('Pod')) {
        const conditions = ((p.status?.['conditions'] ?? []) as { type: string }[]).filter(
          (x) => !['Ready', 'PodScheduled', 'ContainersReady'].includes(x.type),
        );
        c.add(<Pod>{
          ...p,
          spec: { ...p.spec!, nodeName: 'node-1' },
          status: {
            ...p.status,
            phase: 'Running',
            conditions: [
              ...conditions,
              { type: 'PodScheduled', status: 'True' },
              { type: 'ContainersReady', status: 'True' },
              { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-02T11:00:00Z' },
            ],
            containerStatuses: p.spec!.containers!.map((x) => ({
              name: x.name,
              image: x.image,
              imageID: `id-${x.image}`,
              ready: true,
            })),
          },
        });
      }
    },
  };
}

const summary = (writes: { verb: string; kind: string }[]) => writes.map((w) => `${w.verb} ${w.kind}`);

describe('CloneSetReconciler', () => {
  it('scale: creates the revision and the pods (slow start), then writes the status', async () => {
    const w = world();
    w.c.add(cloneSet());
    const { writes, result } = await w.round();
    expect(summary(writes)).toEqual([
      'create ControllerRevision',
      'create Pod',
      'create Pod',
      'create Pod',
      'patchStatus CloneSet',
    ]);
    expect(result).toEqual({});
    expect(w.events).toEqual(['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulCreate']);
    const revision = w.c.all('ControllerRevision')[0]!.metadata!.name;
    expect(w.pods().map((p) => p.metadata?.labels?.['controller-revision-hash'])).toEqual([
      revision,
      revision,
      revision,
    ]);
    // the cache shows no pods yet when the status is computed: they are counted on the next round
    expect(w.cs().status).toMatchObject({ replicas: 0, updateRevision: revision, currentRevision: revision });
  });

  it('status: pods scheduled and ready are counted; nothing is written once the status is up to date', async () => {
    const w = world();
    w.c.add(cloneSet());
    await w.round();
    w.kubelet();
    const second = await w.round();
    // per pod: its first KruisePodReady=True (pkg/controller/podreadiness, written by the claim step), then
    // InPlaceUpdateReady=True (the readiness gate's condition) and PreparingNormal → Normal in one pods/status
    // write (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md); then the status
    expect(summary(second.writes).sort()).toEqual([
      'patchStatus CloneSet',
      ...Array<string>(6).fill('patchStatus Pod'),
    ]);
    expect(w.pods().map((p) => p.status?.['conditions'])).toEqual(
      Array(3).fill(
        expect.arrayContaining([expect.objectContaining({ type: 'KruisePodReady', status: 'True' })]),
      ),
    );
    expect(w.pods().map((p) => p.metadata?.labels?.['lifecycle.apps.kruise.io/state'])).toEqual([
      'Normal',
      'Normal',
      'Normal',
    ]);
    expect(w.cs().status).toMatchObject({ replicas: 3, readyReplicas: 3, updatedReadyReplicas: 3 });
    // available needs the Normal state this round wrote: counted on the next round, then nothing more to write
    expect(w.cs().status).toMatchObject({ availableReplicas: 0 });
    expect(summary((await w.round()).writes)).toEqual(['patchStatus CloneSet']);
    expect(w.cs().status).toMatchObject({ availableReplicas: 3, updatedAvailableReplicas: 3 });
    expect((await w.round()).writes).toEqual([]);
  });

  it('update: a new image is rolled out in place, traced as one rollout with a span per pod', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const w = world({ tracer: new RolloutTracer(provider.getTracer('t')) });
    w.c.add(cloneSet());
    await w.round();
    w.kubelet();
    await w.round();
    const before = w.pods().map((p) => p.metadata?.uid);

    w.c.add(<Obj>{
      ...w.cs(),
      ...cloneSet({
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx:2' }] },
        },
      }),
      status: w.cs().status,
    });
    const { writes } = await w.round();
    // the rollout record first, then per pod the readiness condition and the pod, then the status
    expect(summary(writes).slice(0, 2)).toEqual(['create ControllerRevision', 'patch CloneSet']);
    // each pod written once, as a JSON patch on the version read (docs/adr/0060-pod-projection.md), never PUT
    expect(writes.filter((x) => x.verb === 'replace' && x.kind === 'Pod')).toHaveLength(0);
    expect(
      writes.filter((x) => x.verb === 'patch' && x.kind === 'Pod' && Array.isArray(x.body)),
    ).toHaveLength(3);
    expect(w.events.filter((e) => e === 'SuccessfulUpdatePodInPlace')).toHaveLength(3);
    const record = JSON.parse(w.cs().metadata?.annotations?.[ROLLOUT_TRACE_ANNOTATION] ?? '{}') as {
      to?: string;
    };
    expect(record.to).toBe(w.cs().status?.['updateRevision']);
    expect(w.pods().map((p) => p.metadata?.uid)).toEqual(before);
    expect(w.pods().map((p) => p.spec?.containers?.[0]?.image)).toEqual(['nginx:2', 'nginx:2', 'nginx:2']);

    // the kubelet runs the new image: the pods go back to Normal, and the rollout ends
    w.tick(5_000);
    w.kubelet();
    await w.round();
    await w.round();
    expect(w.cs().status).toMatchObject({ updatedReadyReplicas: 3, currentRevision: record.to });
    await provider.forceFlush();
    expect(
      exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['cloneset.pod-update', 'cloneset.pod-update', 'cloneset.pod-update', 'cloneset.rollout']);
  });

  it('a rejected pod: FailedScale is written once and the error is thrown (back-off), not requeued', async () => {
    const w = world();
    w.c.add(cloneSet());
    w.c.failOn((x) =>
      x.verb === 'create' && x.kind === 'Pod'
        ? new ForbiddenError({ status: 403, serverMessage: `pods "${x.name}" is forbidden: exceeded quota` })
        : undefined,
    );
    await expect(w.round()).rejects.toThrow(/exceeded quota/);
    const first = (w.cs().status?.['conditions'] as { type: string; lastTransitionTime: string }[])[0];
    expect(first).toMatchObject({ type: 'FailedScale', status: 'True' });
    w.tick(3_000);
    const from = w.c.writes.length;
    await expect(w.round()).rejects.toThrow(/exceeded quota/);
    // the same failure again: a pod create attempt, and no status write
    expect(summary(w.c.writes.slice(from))).toEqual(['create Pod']);
    expect((w.cs().status?.['conditions'] as unknown[])[0]).toEqual(first);
  });

  it('a failure seen again before the cache shows the first status write: no second write, same transition time', async () => {
    // the cache still shows the CloneSet as it was before the reconciler's own status write
    const stale = cloneSet({});
    const w = world({
      cloneSetCache: () => ({ ...stale, metadata: { ...stale.metadata, resourceVersion: '1' } }),
    });
    w.c.add(stale);
    w.c.failOn((x) =>
      x.verb === 'create' && x.kind === 'Pod'
        ? new ForbiddenError({ status: 403, serverMessage: `pods "${x.name}" is forbidden: exceeded quota` })
        : undefined,
    );
    const r = w.reconciler();
    await expect(r.reconcile({ namespace: NS, name: 'web' }, ctx)).rejects.toThrow(/exceeded quota/);
    const first = (w.cs().status?.['conditions'] as { type: string }[])[0];
    expect(first).toMatchObject({ type: 'FailedScale', status: 'True' });
    w.tick(1_000);
    const from = w.c.writes.length;
    await expect(r.reconcile({ namespace: NS, name: 'web' }, ctx)).rejects.toThrow(/exceeded quota/);
    expect(summary(w.c.writes.slice(from))).toEqual(['create Pod']);
    expect((w.cs().status?.['conditions'] as unknown[])[0]).toEqual(first);
  });
});
