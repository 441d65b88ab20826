// Pod writes of one rolling-update round in flight together (Parallel) or one pod at a time (OrderedReady), through
// the reconciler on a MemoryCluster. In-place updates write each pod twice (the InPlaceUpdateReady condition, then the
// pod); with several pods in flight those writes interleave.
import { type EventRecorder, type KubeObject } from '@regatta/kube';
import { Expectations, POD_WRITE_CONCURRENCY, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { StatefulSetReconciler } from '../reconciler.js';
import { writeConcurrency } from './rolling-update.js';

const NS = 'ns';
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

const set = (policy: 'Parallel' | 'OrderedReady', image: string): Obj => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: NS, uid: 'sts-uid', generation: 1 },
  spec: {
    replicas: 4,
    serviceName: 'web',
    podManagementPolicy: policy,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'c', image }] },
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: {
        partition: 0,
        maxUnavailable: policy === 'Parallel' ? 3 : 1,
        podUpdatePolicy: 'InPlaceIfPossible',
      },
    },
  },
});

/** The pods written in the first update round, in the order of their writes. */
async function updateRoundWrites(policy: 'Parallel' | 'OrderedReady'): Promise<string[]> {
  const c = new MemoryCluster();
  const events: string[] = [];
  const record = async (_o: KubeObject, reason: string) => void events.push(reason);
  const recorder = { normal: record, warning: record } as unknown as EventRecorder;
  const round = async () => {
    const from = c.writes.length;
    await new StatefulSetReconciler({
      client: c.writer,
      statefulsets: c.reader('StatefulSet'),
      pods: c.reader('Pod'),
      pvcs: c.reader('PersistentVolumeClaim'),
      revisions: c.reader('ControllerRevision'),
      expectations: new Expectations(),
      recorder,
      now: () => new Date('2026-12-02T12:00:00Z'),
    }).reconcile({ namespace: NS, name: 'web' }, ctx);
    return c.writes.slice(from);
  };
  const kubelet = () => {
    for (const p of c.all<Obj>('Pod')) {
      const containers = (p.spec?.['containers'] ?? []) as { name: string; image: string }[];
      c.add(<Obj>{
        ...p,
        status: {
          phase: 'Running',
          conditions: [
            { type: 'ContainersReady', status: 'True' },
            { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-02T11:00:00Z' },
          ],
          containerStatuses: containers.map((x) => ({
            name: x.name,
            image: x.image,
            imageID: `id-${x.image}`,
            ready: true,
            restartCount: 0,
          })),
        },
      });
    }
  };
  c.add(set(policy, 'nginx:1'));
  // OrderedReady creates one pod per round, each after its predecessor is ready
  for (let i = 0; i < 6; i++) {
    await round();
    kubelet();
  }
  await round();
  expect(c.all('Pod')).toHaveLength(4);
  c.add(<Obj>{ ...set(policy, 'nginx:2'), status: c.get<Obj>('StatefulSet', NS, 'web')?.status });
  const writes = await round();
  return writes.filter((w) => w.kind === 'Pod').map((w) => w.name);
}

/** True when some pod's writes began before another's had ended (more than one pod write in flight). */
const interleaved = (names: string[]): boolean =>
  names.some((n, i) => names.slice(i + 1).some((m, j) => m !== n && names.slice(i + 1 + j + 1).includes(n)));

describe('rolling update: pod writes in flight', () => {
  it.each([
    { policy: 'Parallel' as const, want: POD_WRITE_CONCURRENCY },
    { policy: 'OrderedReady' as const, want: 1 },
  ])('$policy → $want', ({ policy, want }) => expect(writeConcurrency(policy)).toBe(want));

  it('Parallel, maxUnavailable 3: three pods updated in place in one round, their writes in flight together', async () => {
    const names = await updateRoundWrites('Parallel');
    expect(new Set(names)).toEqual(new Set(['web-3', 'web-2', 'web-1']));
    expect(names).toHaveLength(6);
    expect(interleaved(names)).toBe(true);
  });

  it('OrderedReady (maxUnavailable 1, as validation requires): one pod per round, its writes in order', async () => {
    const names = await updateRoundWrites('OrderedReady');
    expect(names).toEqual(['web-3', 'web-3']);
    expect(interleaved(names)).toBe(false);
  });
});
