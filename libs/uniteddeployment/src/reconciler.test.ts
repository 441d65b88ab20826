import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { Expectations } from '@regatta/runtime';
import { MemoryCluster, type ObjectReader } from '@regatta/workload';
import { UnitedDeploymentReconciler } from './reconciler.js';
import type { UnitedDeployment } from './types.js';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } as never;
const ctx = { reconcileID: 'r', log, signal: new AbortController().signal };
const empty: ObjectReader<KubeObject> = { get: () => undefined, byIndex: () => [], list: () => [] };

function setup(ud: UnitedDeployment) {
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
    now: () => new Date('2026-01-01T00:00:00Z'),
  });
  const run = () => reconciler.reconcile({ namespace: 'ns', name: 'demo' }, ctx);
  const sets = () =>
    Object.fromEntries(
      cluster
        .all<KubeObject & { spec: { replicas: number } }>('CloneSet')
        .map((c) => [c.metadata?.labels?.['apps.kruise.io/subset-name'], c.spec.replicas]),
    );
  const edit = (f: (u: UnitedDeployment) => void) => {
    const cur = cluster.get<UnitedDeployment>('UnitedDeployment', 'ns', 'demo') as UnitedDeployment;
    f(cur);
    cluster.add(cur);
  };
  return { cluster, events, run, sets, edit };
}

const ud = (): UnitedDeployment => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'UnitedDeployment',
  metadata: { name: 'demo', namespace: 'ns', uid: 'ud-1', generation: 1, resourceVersion: '1' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'demo' } },
    template: {
      cloneSetTemplate: {
        metadata: { labels: { app: 'demo' } },
        spec: {
          selector: { matchLabels: { app: 'demo' } },
          template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } },
        } as never,
      },
    },
    topology: { subsets: [{ name: 'a' }, { name: 'b' }] },
    updateStrategy: { type: 'Manual', manualUpdate: { partitions: { a: 1 } } },
  },
});

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
    expect(t.events).toContain(`SuccessfulUpdateSubset: Create 2 Subset (${t.cluster.all('CloneSet').map((c) => c.metadata?.name).join(', ')})`);
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
    dup.metadata = { ...dup.metadata, name: 'demo-b-dup', creationTimestamp: '2030-01-01T00:00:00Z' };
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
});
