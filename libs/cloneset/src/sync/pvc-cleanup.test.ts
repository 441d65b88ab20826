// PVC clean-up with `scaleStrategy.disablePVCReuse`, through the reconciler on an in-memory cluster: the claim of
// a terminating pod goes to that pod, and the replacement pod gets a fresh instance id and a fresh claim (OpenKruise
// `pkg/controller/cloneset/cloneset_controller.go`, `cleanupPVCs`, whose result is what scaling sees).
import type { EventRecorder, KubeObject } from '@regatta/kube';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster } from '@regatta/workload';
import { describe, expect, it } from 'vitest';
import { INSTANCE_ID_LABEL } from '../planning/index.js';
import { CloneSetReconciler } from '../reconciler.js';

const NS = 'ns';
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
const csRef = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  name: 'web',
  uid: 'cs-uid',
  controller: true,
  blockOwnerDeletion: true,
};

function world(disablePVCReuse: boolean) {
  const c = new MemoryCluster();
  const events: string[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string) => void events.push(reason),
    warning: async (_o: KubeObject, reason: string) => void events.push(reason),
  } as unknown as EventRecorder;
  let seed = 7;
  c.add({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: NS, uid: 'cs-uid', generation: 1 },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [{ name: 'c', image: 'nginx:1', volumeMounts: [{ name: 'data', mountPath: '/d' }] }],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
      updateStrategy: { type: 'ReCreate' },
      scaleStrategy: { disablePVCReuse },
    },
  } as KubeObject);
  // the pod of instance "old" is being deleted; its claim is still the CloneSet's
  c.add(
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web-old',
        namespace: NS,
        uid: 'pod-old',
        labels: { app: 'web', [INSTANCE_ID_LABEL]: 'old' },
        ownerReferences: [csRef],
        deletionTimestamp: '2026-12-02T11:59:00Z',
        finalizers: ['example.com/slow'],
      },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    } as KubeObject,
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'data-web-old',
        namespace: NS,
        labels: { app: 'web', [INSTANCE_ID_LABEL]: 'old' },
        ownerReferences: [csRef],
      },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    } as KubeObject,
  );
  const reconciler = new CloneSetReconciler({
    client: c.writer,
    clonesets: c.reader('CloneSet'),
    pods: c.reader('Pod'),
    pvcs: c.reader('PersistentVolumeClaim'),
    revisions: c.reader('ControllerRevision'),
    expectations: new Expectations(),
    recorder,
    now: () => new Date('2026-12-02T12:00:00Z'),
    random: () => (seed = (seed * 16807) % 2147483647) / 2147483647,
  });
  return { c, events, round: () => reconciler.reconcile({ namespace: NS, name: 'web' }, ctx) };
}

const created = (c: MemoryCluster, kind: string) => c.written('create', kind).map((w) => w.name);

describe('cleanupPvcsStep with disablePVCReuse', () => {
  it("hands a terminating pod's claim to the pod and scales with a fresh instance id and claim", async () => {
    const w = world(true);
    await w.round();
    const oldClaim = w.c.get('PersistentVolumeClaim', NS, 'data-web-old');
    expect(oldClaim?.metadata?.ownerReferences?.map((r) => r.uid)).toEqual(['pod-old']);
    const pods = created(w.c, 'Pod');
    expect(pods).toHaveLength(1);
    expect(pods[0]).not.toBe('web-old');
    expect(created(w.c, 'PersistentVolumeClaim')).toEqual([`data-${pods[0]}`]);
    expect(w.events).toEqual(['SuccessfulCreate']);
  });

  // what the defect did with reuse disabled too: the free claim's instance id is reused, and the new pod's name
  // clashes with the terminating one (409)
  it('with reuse allowed, the replacement takes the free claim and its instance id', async () => {
    const w = world(false);
    await expect(w.round()).rejects.toThrow(/already exists/);
    expect(w.c.written('replace', 'PersistentVolumeClaim')).toEqual([]);
    expect(created(w.c, 'PersistentVolumeClaim')).toEqual([]);
    expect(created(w.c, 'Pod')).toEqual(['web-old']);
  });
});
