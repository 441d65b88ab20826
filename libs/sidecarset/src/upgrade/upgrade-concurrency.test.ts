// A round's pod writes (docs/adr/0055-sidecarset-pod-writes-concurrent.md): up to POD_WRITE_CONCURRENCY pods written
// at once, each pod's update before its condition, never more pods chosen than maxUnavailable allows, and one pod's
// failure (deleted meanwhile, or refused) not stopping the others. In-memory readers and a writer whose pod writes
// take a few milliseconds, so the writes of a round overlap as they do against an API server.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { type EventRecorder, type KubeObject, ServerError } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { Expectations, POD_WRITE_CONCURRENCY, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { type KubeWriter, MemoryCluster, RolloutTracer, STATUS_WRITE_INTERVAL_MS } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { SidecarSetUpgradeReconciler } from './reconciler.js';
import { T0, pod, sidecarSet } from './testing/fixtures.js';

const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function world(n: number, maxUnavailable: number) {
  const c = new MemoryCluster();
  c.add(
    sidecarSet({ updateStrategy: { type: 'RollingUpdate', maxUnavailable } }),
    ...Array.from({ length: n }, (_, i) => pod({ name: `pod-${String(i).padStart(2, '0')}`, createdAt: i })),
  );
  const log: string[] = [];
  let inFlight = 0;
  let most = 0;
  /** Runs before a pod write reaches the cluster (e.g. deletes the pod). */
  let before: (verb: string, name: string) => void = () => undefined;
  const slow =
    <A extends unknown[], R>(verb: string, name: (...a: A) => string, f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        await sleep(3);
        before(verb, name(...a));
        const out = await f(...a);
        log.push(`${verb} ${name(...a)}`);
        return out;
      } finally {
        inFlight--;
      }
    };
  const w = c.writer;
  const writer = {
    ...w,
    patch: (ref: Parameters<KubeWriter['patch']>[0], ...rest: unknown[]) =>
      ref.kind === 'Pod'
        ? slow(
            'patch',
            () => ref.name,
            () => (w.patch as (...a: unknown[]) => Promise<KubeObject>)(ref, ...rest),
          )()
        : (w.patch as (...a: unknown[]) => Promise<KubeObject>)(ref, ...rest),
    patchStatus: (ref: Parameters<KubeWriter['patchStatus']>[0], ...rest: unknown[]) =>
      ref.kind === 'Pod'
        ? slow(
            'status',
            () => ref.name,
            () => (w.patchStatus as (...a: unknown[]) => Promise<KubeObject>)(ref, ...rest),
          )()
        : (w.patchStatus as (...a: unknown[]) => Promise<KubeObject>)(ref, ...rest),
  } as KubeWriter;
  const provider = new TracerProvider({
    spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })],
  });
  const expectations = new Expectations();
  const reconciler = new SidecarSetUpgradeReconciler({
    client: writer,
    sidecarsets: c.reader('SidecarSet'),
    pods: c.reader('Pod'),
    revisions: c.reader('ControllerRevision'),
    controllerNamespace: 'kruise-system',
    expectations,
    recorder: { normal: async () => undefined, warning: async () => undefined } as unknown as EventRecorder,
    now: () => T0,
    rollouts: new RolloutTracer(provider.getTracer('t'), { prefix: 'sidecarset' }),
  });
  const upgraded = () =>
    c
      .all<Pod>('Pod')
      .filter((p) => p.spec?.containers?.[0]?.image === 'cold-image:v2')
      .map((p) => p.metadata?.name)
      .sort();
  return {
    c,
    log,
    most: () => most,
    onWrite: (f: typeof before) => (before = f),
    round: () => reconciler.reconcile({ name: 'test-sidecarset' }, ctx),
    upgraded,
  };
}

describe('a round of sidecar upgrades', () => {
  it('writes the chosen pods concurrently (at most POD_WRITE_CONCURRENCY), each pod patch before its condition, within maxUnavailable', async () => {
    const w = world(40, 20);
    await w.round();
    expect(w.upgraded()).toHaveLength(20);
    expect(w.most()).toBe(POD_WRITE_CONCURRENCY);
    for (const name of w.upgraded()) {
      const patch = w.log.indexOf(`patch ${name}`);
      expect(patch).toBeGreaterThanOrEqual(0);
      expect(w.log.indexOf(`status ${name}`)).toBeGreaterThan(patch);
    }
    // the 20 written pods have not restarted their sidecar: the budget is used, the next round writes no pod
    const before = w.log.length;
    await w.round();
    expect(w.log.slice(before)).toEqual([]);
    expect(w.upgraded()).toHaveLength(20);
  });

  it('a pod deleted mid-round is skipped; the others are written and the round succeeds', async () => {
    const w = world(10, 10);
    w.onWrite((verb, name) => {
      if (verb === 'patch' && name === 'pod-04')
        void w.c.writer.delete({ apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name });
    });
    await expect(w.round()).resolves.toEqual({});
    expect(w.upgraded()).toEqual([
      'pod-00',
      'pod-01',
      'pod-02',
      'pod-03',
      'pod-05',
      'pod-06',
      'pod-07',
      'pod-08',
      'pod-09',
    ]);
    expect(w.log.filter((l) => l.startsWith('status'))).toHaveLength(9);
  });

  it('a pod whose patch is refused fails the round only after the others are written and expected', async () => {
    const w = world(10, 10);
    const refused = new ServerError({
      status: 500,
      reason: 'InternalError',
      serverMessage: 'etcdserver: timeout',
    });
    w.c.failOn((x) => (x.verb === 'patch' && x.kind === 'Pod' && x.name === 'pod-07' ? refused : undefined));
    await expect(w.round()).rejects.toBe(refused);
    expect(w.upgraded()).toHaveLength(9);
    expect(w.log.filter((l) => l.startsWith('status'))).toHaveLength(9);
    // the next round sees its own writes (expectations satisfied) and retries the refused pod within the budget
    w.c.failOn(undefined);
    // (its status change, counters only within the interval after the last write, waits for the cadence: ADR 0050)
    await expect(w.round()).resolves.toEqual({ requeueAfterMs: STATUS_WRITE_INTERVAL_MS });
    expect(w.upgraded()).toHaveLength(10);
  });
});
