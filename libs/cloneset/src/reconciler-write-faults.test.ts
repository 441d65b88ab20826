// The CloneSet reconciler when a pod create loses its answer (docs/adr/0061-writes-without-an-answer.md): the pod was
// created, the answer replaced by a 5xx, and the pod cache shows it only later. Found by the reliability suite
// (docs/reliability-runs-r1-ao-bq.md run AR: a UnitedDeployment's subset CloneSet one pod over its replicas under API faults).
import type { Pod } from '@regatta/api';
import { type EventRecorder, type KubeObject, ServerError, TimeoutError } from '@regatta/kube';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { CloneSetReconciler } from './reconciler.js';

const NS = 'ns';
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };

const cloneSet: KubeObject & { spec: unknown } = {
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
    updateStrategy: { type: 'InPlaceIfPossible', partition: 0, maxUnavailable: 1, maxSurge: 0 },
    scaleStrategy: {},
  },
};

/** The first pod create is applied and answered with `err`; created pods reach the cache on deliver(). */
function world(err: Error, readBackFails = false) {
  const c = new MemoryCluster();
  c.add(cloneSet);
  const expectations = new Expectations();
  const undelivered = new Set<string>();
  const store = c.reader('Pod');
  const shown = (o: KubeObject) => !undelivered.has(o.metadata?.name ?? '');
  let lose = true;
  let failReads = readBackFails;
  const writer = {
    ...c.writer,
    create: async <T extends KubeObject>(o: T): Promise<T> => {
      const out = await c.writer.create(o);
      if (o.kind !== 'Pod') return out;
      undelivered.add(o.metadata?.name ?? '');
      if (lose) {
        lose = false;
        throw err;
      }
      return out;
    },
    get: async <T extends KubeObject>(ref: {
      kind: string;
      namespace?: string;
      name: string;
    }): Promise<T> => {
      if (failReads && ref.kind === 'Pod')
        throw new ServerError({ status: 503, serverMessage: 'unavailable' });
      return c.writer.get<T>(ref as never);
    },
  } as typeof c.writer;
  const reconciler = new CloneSetReconciler({
    client: writer,
    clonesets: c.reader('CloneSet'),
    pods: {
      get: (ns, name) => (undelivered.has(name) ? undefined : store.get(ns, name)),
      byIndex: (index, value) => store.byIndex(index, value).filter(shown),
      list: (opts) => store.list(opts).filter(shown),
    },
    pvcs: c.reader('PersistentVolumeClaim'),
    revisions: c.reader('ControllerRevision'),
    expectations,
    recorder: { normal: async () => undefined, warning: async () => undefined } as unknown as EventRecorder,
    now: () => new Date('2026-12-05T08:00:00Z'),
  });
  return {
    round: () => reconciler.reconcile({ namespace: NS, name: 'web' }, ctx).catch(() => undefined),
    deliver: () => {
      for (const name of undelivered) expectations.observeScale(`${NS}/web`, 'create', name);
      undelivered.clear();
      failReads = false;
    },
    pods: () => c.all<Pod>('Pod'),
  };
}

describe('CloneSetReconciler, a pod create without an answer', () => {
  it.each<[string, Error, boolean]>([
    [
      'a 5xx answer, the pod read back',
      new ServerError({ status: 500, serverMessage: 'etcdserver: leader changed' }),
      false,
    ],
    [
      'timed out, the pod read back',
      new TimeoutError({ status: 0, serverMessage: 'the request timed out' }),
      false,
    ],
    [
      'a 5xx answer, the read-back failing too',
      new ServerError({ status: 500, serverMessage: 'leader changed' }),
      true,
    ],
  ])('%s: never a pod over replicas while the cache lags', async (_, err, readBackFails) => {
    const w = world(err, readBackFails);
    for (let i = 0; i < 4; i++) {
      await w.round();
      expect(w.pods().length).toBeLessThanOrEqual(3);
    }
    w.deliver();
    for (let i = 0; i < 3; i++) {
      await w.round();
      w.deliver();
    }
    expect(w.pods()).toHaveLength(3);
  });
});
