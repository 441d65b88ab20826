// The SidecarSet upgrade reconciler without a cluster: in-memory readers and a recording writer (MemoryCluster), a
// fresh Expectations per round unless a test keeps one, and a kubelet() that restarts containers whose spec image
// changed. The scenario tests (apps/sidecarset/src/sidecarset-upgrade*.int.test.ts) run it for real.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { EventRecorder, KubeObject } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, RolloutTracer, STATUS_WRITE_INTERVAL_MS } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { SIDECARSET_HASH_KEY, SIDECARSET_NAME_LABEL } from './keys.js';
import { SidecarSetUpgradeReconciler } from './reconciler.js';
import { T0, hotPod, hotSidecarSet, pod, sidecarSet, restartChangedContainers } from './testing/fixtures.js';
import type { SidecarSetView } from './types.js';

const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
const CONTROLLER_NS = 'kruise-system';

function world(options: { tracer?: RolloutTracer; webhookInStep?: () => boolean } = {}) {
  const c = new MemoryCluster();
  const events: { reason: string; on: string }[] = [];
  const recorder = {
    normal: async (o: KubeObject, reason: string) => void events.push({ reason, on: o.kind ?? '' }),
    warning: async (o: KubeObject, reason: string) => void events.push({ reason, on: o.kind ?? '' }),
  } as unknown as EventRecorder;
  let now = T0;
  const reconciler = (expectations: Expectations) =>
    new SidecarSetUpgradeReconciler({
      client: c.writer,
      sidecarsets: c.reader('SidecarSet'),
      pods: c.reader('Pod'),
      revisions: c.reader('ControllerRevision'),
      controllerNamespace: CONTROLLER_NS,
      expectations,
      recorder,
      now: () => now,
      ...(options.tracer ? { rollouts: options.tracer } : {}),
      ...(options.webhookInStep ? { podWebhookInStep: () => Promise.resolve(options.webhookInStep!()) } : {}),
    });
  const keep = new Expectations();
  const r = reconciler(keep);
  return {
    c,
    events,
    keep,
    /** Moves the reconcilers' clock on. */
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
    round: async (shared = false) => {
      const from = c.writes.length;
      const result = await (shared ? r : reconciler(new Expectations())).reconcile(
        { name: 'test-sidecarset' },
        ctx,
      );
      return { result, writes: c.writes.slice(from) };
    },
    pods: () => c.all<Pod>('Pod').sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1)),
    set: () => c.get('SidecarSet', undefined, 'test-sidecarset') as SidecarSetView,
    /** Restarts every container whose status image differs from its spec image (restartCount + 1). */
    kubelet: () => restartChangedContainers(c),
  };
}

const summary = (writes: { verb: string; kind: string }[]) => writes.map((w) => `${w.verb} ${w.kind}`);
const images = (pods: Pod[]) => pods.map((p) => p.spec?.containers?.map((x) => x.image).join(','));

describe('SidecarSetUpgradeReconciler', () => {
  it('cold upgrade: a revision in the controller namespace, status, then one pod per round under maxUnavailable 1', async () => {
    const w = world();
    w.c.add(
      sidecarSet(),
      pod({ name: 'pod-0' }),
      pod({ name: 'pod-1', createdAt: 1 }),
      pod({ name: 'pod-2', createdAt: 2 }),
    );
    const uids = w.pods().map((p) => p.metadata?.uid);
    const first = await w.round();
    expect(summary(first.writes)).toEqual([
      'create ControllerRevision',
      'patchStatus SidecarSet',
      'patch Pod',
      'patchStatus Pod',
    ]);
    const revision = w.c.all('ControllerRevision')[0]!;
    expect(revision.metadata?.namespace).toBe(CONTROLLER_NS);
    expect(revision.metadata?.labels?.[SIDECARSET_NAME_LABEL]).toBe('test-sidecarset');
    expect(w.set().status).toEqual({
      observedGeneration: 2,
      matchedPods: 3,
      updatedPods: 0,
      readyPods: 3,
      updatedReadyPods: 0,
      latestRevision: revision.metadata?.name,
      collisionCount: 0,
    });
    // newest first (upstream ActivePods order); the app container untouched
    expect(images(w.pods())).toEqual([
      'cold-image:v1,nginx:1',
      'cold-image:v1,nginx:1',
      'cold-image:v2,nginx:1',
    ]);
    const hash = JSON.parse(w.pods()[2]!.metadata!.annotations![SIDECARSET_HASH_KEY]!);
    expect(hash['test-sidecarset'].controllerRevision).toBe(revision.metadata?.name);

    // the sidecar is not restarted yet: pod-2 is unavailable, nothing else moves
    expect(summary((await w.round()).writes)).toEqual(['patchStatus SidecarSet']);
    w.kubelet();
    await w.round();
    w.kubelet();
    await w.round();
    w.kubelet();
    await w.round();
    expect(images(w.pods())).toEqual(Array(3).fill('cold-image:v2,nginx:1'));
    expect(w.pods().map((p) => p.metadata?.uid)).toEqual(uids);
    expect(w.pods().map((p) => p.status?.containerStatuses?.map((s) => s.restartCount).join(','))).toEqual(
      Array(3).fill('1,0'),
    );
    expect(w.set().status).toMatchObject({
      matchedPods: 3,
      updatedPods: 3,
      readyPods: 3,
      updatedReadyPods: 3,
    });
    expect((await w.round()).writes).toEqual([]);
  });

  it('a new generation is reported observed only once the pod webhook entry is applied; the rest goes on', async () => {
    let inStep = false;
    const w = world({ webhookInStep: () => inStep });
    w.c.add(sidecarSet(), pod({ name: 'pod-0' }));
    const first = await w.round();
    expect(first.result).toEqual({ requeueAfterMs: 200 });
    expect(w.set().status).toMatchObject({ observedGeneration: 0, matchedPods: 1 });
    expect(images(w.pods())).toEqual(['cold-image:v2,nginx:1']);
    inStep = true;
    expect((await w.round()).result).toEqual({});
    expect(w.set().status?.observedGeneration).toBe(2);
  });

  it('status counters follow the write cadence (ADR 0050): a counter-only change waits, the done upgrade does not', async () => {
    const w = world();
    w.c.add(sidecarSet(), pod({ name: 'pod-0' }), pod({ name: 'pod-1', createdAt: 1 }));
    // first status: written at once, then pod-1 upgraded
    expect(summary((await w.round(true)).writes)).toContain('patchStatus SidecarSet');
    // pod-1's sidecar restarts: updatedPods 0 → 1, a counter within the interval after the last write — deferred, and the
    // next pod is upgraded without waiting for a status write
    w.kubelet();
    const deferred = await w.round(true);
    expect(summary(deferred.writes)).toEqual(['patch Pod', 'patchStatus Pod']);
    expect(deferred.result).toEqual({ requeueAfterMs: STATUS_WRITE_INTERVAL_MS });
    expect(w.set().status?.updatedPods).toBe(0);
    // the requeue an interval later writes the latest counters (pod-0 upgraded, its sidecar not restarted yet)
    w.advance(STATUS_WRITE_INTERVAL_MS);
    expect(summary((await w.round(true)).writes)).toEqual(['patchStatus SidecarSet']);
    expect(w.set().status).toMatchObject({ updatedPods: 2, readyPods: 1, updatedReadyPods: 1 });
    // done (every pod updated and ready): written at once, inside the interval
    w.advance(10);
    w.kubelet();
    const done = await w.round(true);
    expect(summary(done.writes)).toEqual(['patchStatus SidecarSet']);
    expect(done.result).toEqual({});
    expect(w.set().status).toMatchObject({
      matchedPods: 2,
      updatedPods: 2,
      readyPods: 2,
      updatedReadyPods: 2,
    });
  });

  it('a deferred status is written at once when a later step of the reconcile fails', async () => {
    const w = world();
    w.c.add(
      sidecarSet({ updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 } }),
      pod({ name: 'pod-0' }),
      pod({ name: 'pod-1', createdAt: 1 }),
    );
    await w.round(true);
    w.kubelet();
    const refused = new Error('etcdserver: timeout');
    w.c.failOn((x) => (x.verb === 'patch' && x.kind === 'Pod' ? refused : undefined));
    await expect(w.round(true)).rejects.toBe(refused);
    expect(w.set().status).toMatchObject({ updatedPods: 1 });
  });

  it('partition 2 of 3: one pod updated, then held', async () => {
    const w = world();
    w.c.add(
      sidecarSet({ updateStrategy: { partition: 2, maxUnavailable: 3 } }),
      pod({ name: 'a' }),
      pod({ name: 'b' }),
      pod({ name: 'c' }),
    );
    await w.round();
    w.kubelet();
    await w.round();
    expect(w.pods().filter((p) => p.spec?.containers?.[0]?.image === 'cold-image:v2')).toHaveLength(1);
  });

  it('paused and NotUpdate: status only, no pod write', async () => {
    // NotUpdate with a partition no rule reads (admitted, as upstream admits it: docs/reliability.md finding 20)
    for (const strategy of [{ paused: true }, { type: 'NotUpdate' }, { type: 'NotUpdate', partition: '' }]) {
      const w = world();
      w.c.add(sidecarSet({ updateStrategy: strategy }), pod());
      expect(summary((await w.round()).writes)).toEqual([
        'create ControllerRevision',
        'patchStatus SidecarSet',
      ]);
    }
  });

  it('not upgradable pods: condition False and one NotUpgradablePods event', async () => {
    const w = world();
    w.c.add(sidecarSet(), pod({ name: 'a', withoutImage: 'old' }), pod({ name: 'b', withoutImage: 'old' }));
    const { writes } = await w.round();
    expect(summary(writes)).toEqual([
      'create ControllerRevision',
      'patchStatus SidecarSet',
      'patchStatus Pod',
      'patchStatus Pod',
    ]);
    expect(w.events).toEqual([{ reason: 'NotUpgradablePods', on: 'SidecarSet' }]);
    expect(w.pods()[0]?.status?.conditions?.find((x) => x.type === 'SidecarSetUpgradable')).toMatchObject({
      status: 'False',
      reason: 'UpdateImmutableField',
    });
  });

  it('waits (1 s) while the cache does not show its own pod write', async () => {
    const w = world();
    w.c.add(sidecarSet({ updateStrategy: { maxUnavailable: 2 } }), pod({ name: 'a' }), pod({ name: 'b' }));
    await w.round(true);
    // the cache now "loses" the write: the pod at its old version
    const written = w.pods().find((p) => p.spec?.containers?.[0]?.image === 'cold-image:v2')!;
    w.keep.expectUpdated('test-sidecarset', `ns/${written.metadata?.name}`, '999');
    expect((await w.round(true)).result).toEqual({ requeueAfterMs: 1000 });
  });

  it('hot upgrade: the idle twin takes the new image, then the old one is reset with ResetContainerSucceed', async () => {
    const w = world();
    w.c.add(hotSidecarSet('hot-image:v2'), hotPod({ one: 'hot-image:v1', two: 'empty:1' }));
    await w.round();
    expect(images(w.pods())).toEqual(['hot-image:v1,hot-image:v2,nginx:1']);
    w.kubelet();
    await w.round();
    expect(images(w.pods())).toEqual(['empty:1,hot-image:v2,nginx:1']);
    expect(w.events).toEqual([{ reason: 'ResetContainerSucceed', on: 'Pod' }]);
    w.kubelet();
    await w.round();
    expect(w.set().status).toMatchObject({
      matchedPods: 1,
      updatedPods: 1,
      readyPods: 1,
      updatedReadyPods: 1,
    });
  });

  it('history: old revisions beyond revisionHistoryLimit are deleted, those pods reference kept', async () => {
    const w = world();
    w.c.add(pod());
    const names: string[] = [];
    for (const image of ['v1', 'v2', 'v3']) {
      const base = sidecarSet(
        { revisionHistoryLimit: 1, containers: [{ name: 'cold-sidecar', image: `cold-image:${image}` }] },
        image,
      );
      w.c.add({ ...base, status: w.set()?.status ?? {} } as SidecarSetView);
      await w.round();
      names.push(w.set().status?.latestRevision ?? '');
    }
    // v1: never referenced, deleted; v2: the pod was upgraded to it (its hash entry names it), kept; v3: the latest
    expect(
      w.c
        .all('ControllerRevision')
        .map((r) => r.metadata?.name)
        .sort(),
    ).toEqual(names.slice(1).sort());
  });

  it('rollout trace: one trace for the new revision, a span per pod upgrade', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const w = world({ tracer: new RolloutTracer(provider.getTracer('t'), { prefix: 'sidecarset' }) });
    w.c.add(
      sidecarSet({ containers: [{ name: 'cold-sidecar', image: 'cold-image:v1' }] }, 'h1'),
      pod({ name: 'a' }),
      pod({ name: 'b' }),
    );
    await w.round();
    w.c.add({
      ...sidecarSet({ updateStrategy: { maxUnavailable: 2 } }),
      status: w.set().status,
    } as SidecarSetView);
    await w.round(true);
    w.kubelet();
    await w.round(true);
    await w.round(true);
    await provider.forceFlush();
    expect(
      exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['sidecarset.pod-update', 'sidecarset.pod-update', 'sidecarset.rollout']);
  });
});
