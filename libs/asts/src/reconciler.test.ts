// The Advanced StatefulSet reconciler without a cluster: in-memory readers and a recording writer (MemoryCluster),
// a fresh Expectations per round, a kubelet() that runs pods and makes them ready. The scenario tests
// (apps/asts/src/*.int.test.ts) run it for real.
import { type EventRecorder, ForbiddenError, type KubeObject } from '@regatta/kube';
import { Expectations, type ReconcileContext, silentLogger } from '@regatta/runtime';
import { MemoryCluster, RolloutTracer } from '@regatta/workload';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { StatefulSetReconciler } from './reconciler.js';

const NS = 'ns';
const T0 = new Date('2026-12-02T12:00:00Z');
const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };

interface Pod extends KubeObject {
  spec?: {
    containers: { name: string; image: string }[];
    hostname?: string;
    subdomain?: string;
    volumes?: unknown[];
  };
  status?: Record<string, unknown>;
}
type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

const sts = (over: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'apps.kruise.io/v1beta1',
  kind: 'StatefulSet',
  metadata: { name: 'web', namespace: NS, uid: 'sts-uid', generation: 1 },
  spec: {
    replicas: 3,
    serviceName: 'web',
    podManagementPolicy: 'OrderedReady',
    revisionHistoryLimit: 10,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    },
    updateStrategy: {
      type: 'RollingUpdate',
      rollingUpdate: { partition: 0, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' },
    },
    ...over,
  },
});

function world(options: { tracer?: RolloutTracer; gates?: Record<string, boolean> } = {}) {
  const c = new MemoryCluster();
  const events: string[] = [];
  const recorder = {
    normal: async (_o: KubeObject, reason: string, message: string) =>
      void events.push(`${reason}: ${message}`),
    warning: async (_o: KubeObject, reason: string, message: string) =>
      void events.push(`${reason}: ${message}`),
  } as unknown as EventRecorder;
  const now = T0;
  const reconciler = () =>
    new StatefulSetReconciler({
      client: c.writer,
      statefulsets: c.reader('StatefulSet'),
      pods: c.reader('Pod'),
      pvcs: c.reader('PersistentVolumeClaim'),
      revisions: c.reader('ControllerRevision'),
      expectations: new Expectations(),
      recorder,
      now: () => now,
      ...(options.tracer ? { rollouts: options.tracer } : {}),
      ...(options.gates ? { gates: options.gates } : {}),
    });
  return {
    c,
    events,
    round: async () => {
      const from = c.writes.length;
      const result = await reconciler().reconcile({ namespace: NS, name: 'web' }, ctx);
      return { result, writes: c.writes.slice(from) };
    },
    pods: () => c.all<Pod>('Pod').sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1)),
    sts: () => c.get('StatefulSet', NS, 'web') as Obj,
    set: (over: Record<string, unknown>) =>
      c.add(<Obj>{ ...sts(over), status: (c.get('StatefulSet', NS, 'web') as Obj).status }),
    /** Runs every pod and makes it ready with the images of its spec (restartCount +1 on an image change). */
    kubelet: (only?: (p: Pod) => boolean) => {
      for (const p of c.all<Pod>('Pod')) {
        if (only && !only(p)) continue;
        const prev = (p.status?.['containerStatuses'] ?? []) as {
          name: string;
          image: string;
          restartCount: number;
        }[];
        c.add(<Pod>{
          ...p,
          status: {
            phase: 'Running',
            conditions: [
              // conditions of other writers stay (KruisePodReady, pkg/controller/podreadiness)
              ...((p.status?.['conditions'] ?? []) as { type: string }[]).filter(
                (x) => x.type === 'KruisePodReady',
              ),
              { type: 'ContainersReady', status: 'True' },
              { type: 'Ready', status: 'True', lastTransitionTime: '2026-12-02T11:00:00Z' },
            ],
            containerStatuses: p.spec!.containers.map((x) => {
              const before = prev.find((s) => s.name === x.name);
              return {
                name: x.name,
                image: x.image,
                imageID: `id-${x.image}`,
                ready: true,
                restartCount: (before?.restartCount ?? 0) + (before && before.image !== x.image ? 1 : 0),
              };
            }),
          },
        });
      }
    },
    /** The API server finishing deletions: a deleted pod is simply gone here. */
  };
}

const summary = (writes: { verb: string; kind: string; name: string }[]) =>
  writes.map((w) => `${w.verb} ${w.kind} ${w.name}`);

describe('StatefulSetReconciler', () => {
  it('OrderedReady: one pod per round, each after its predecessor is ready; identity and claims', async () => {
    const w = world();
    w.c.add(
      sts({
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      }),
    );
    const first = await w.round();
    expect(summary(first.writes)).toEqual([
      'create ControllerRevision ' + w.c.all('ControllerRevision')[0]!.metadata!.name,
      'create PersistentVolumeClaim data-web-0',
      'create Pod web-0',
      'patchStatus StatefulSet web',
    ]);
    const pod = w.pods()[0]!;
    expect(pod.spec).toMatchObject({ hostname: 'web-0', subdomain: 'web' });
    expect(pod.spec!.volumes).toEqual([{ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } }]);
    expect(pod.metadata!.labels).toMatchObject({
      app: 'web',
      'statefulset.kubernetes.io/pod-name': 'web-0',
      'apps.kubernetes.io/pod-index': '0',
      'lifecycle.apps.kruise.io/state': 'Normal',
      'controller-revision-hash': w.c.all('ControllerRevision')[0]!.metadata!.name,
    });
    expect(w.c.get('PersistentVolumeClaim', NS, 'data-web-0')!.metadata!.labels).toEqual({ app: 'web' });
    expect(w.events).toEqual([
      'SuccessfulCreate: create Claim data-web-0 Pod web-0 in StatefulSet web success',
      'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
    ]);
    // web-0 not ready: nothing more than its first KruisePodReady condition (the gate is added at creation)
    expect((w.pods()[0]!.spec as { readinessGates?: unknown }).readinessGates).toEqual([
      { conditionType: 'KruisePodReady' },
    ]);
    w.c.add({ ...w.pods()[0]!, status: { phase: 'Pending' } } as Pod);
    expect(summary((await w.round()).writes)).toEqual([
      'patchStatus Pod web-0',
      'patchStatus StatefulSet web',
    ]);
    expect(w.pods()[0]!.status!['conditions']).toMatchObject([{ type: 'KruisePodReady', status: 'True' }]);
    w.kubelet();
    expect(summary((await w.round()).writes)).toEqual([
      'create PersistentVolumeClaim data-web-1',
      'create Pod web-1',
      'patchStatus StatefulSet web',
    ]);
    w.kubelet();
    await w.round();
    w.kubelet();
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(w.sts().status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
    });
    // no provisioner here: the claims report no capacity, so none is ready
    expect(w.sts().status!['volumeClaims']).toEqual([
      { volumeClaimName: 'data', compatibleReplicas: 3, compatibleReadyReplicas: 0 },
    ]);
    expect((await w.round()).writes).toEqual([]);
  });

  it('Parallel with reserveOrdinals: all pods at once, reserved ordinals skipped; scale down deletes the condemned', async () => {
    const w = world();
    w.c.add(sts({ podManagementPolicy: 'Parallel', replicas: 4, reserveOrdinals: [1, '3-4'] }));
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-2', 'web-5', 'web-6']);
    w.kubelet();
    w.set({ podManagementPolicy: 'Parallel', replicas: 2, reserveOrdinals: [1, '3-4'] });
    const { writes } = await w.round();
    expect(summary(writes).filter((x) => x.startsWith('delete'))).toEqual([
      'delete Pod web-6',
      'delete Pod web-5',
    ]);
  });

  it('in-place update (Parallel, maxUnavailable 2): pod UIDs kept, highest ordinals first', async () => {
    const w = world();
    const ru = { partition: 0, maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible' };
    const template = (image: string) => ({
      metadata: { labels: { app: 'web' } },
      spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'c', image }] },
    });
    w.c.add(
      sts({
        podManagementPolicy: 'Parallel',
        template: template('nginx:1'),
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru },
      }),
    );
    await w.round();
    w.kubelet();
    await w.round();
    const uids = w.pods().map((p) => p.metadata!.uid);
    w.set({
      podManagementPolicy: 'Parallel',
      template: template('nginx:2'),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru },
    });
    await w.round();
    expect(w.pods().map((p) => p.spec!.containers[0]!.image)).toEqual(['nginx:1', 'nginx:2', 'nginx:2']);
    expect(w.events.filter((e) => e.startsWith('SuccessfulUpdatePodInPlace'))).toHaveLength(2);
    for (let i = 0; i < 4; i++) {
      w.kubelet();
      await w.round();
    }
    expect(w.pods().map((p) => p.spec!.containers[0]!.image)).toEqual(['nginx:2', 'nginx:2', 'nginx:2']);
    expect(w.pods().map((p) => p.metadata!.uid)).toEqual(uids);
    expect(
      w.pods().map((p) => (p.status!['containerStatuses'] as { restartCount: number }[])[0]!.restartCount),
    ).toEqual([1, 1, 1]);
    expect(w.sts().status).toMatchObject({
      updatedReplicas: 3,
      currentRevision: w.sts().status!['updateRevision'],
    });
  });

  it('recreate update with partition: only ordinals ≥ partition, one at a time from the highest', async () => {
    const w = world();
    w.c.add(sts());
    for (let i = 0; i < 4; i++) {
      await w.round();
      w.kubelet();
    }
    const image = (img: string) => ({
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: img }] },
    });
    w.set({
      template: image('nginx:2'),
      updateStrategy: {
        type: 'RollingUpdate',
        rollingUpdate: { partition: 1, maxUnavailable: 1, podUpdatePolicy: 'ReCreate' },
      },
    });
    const { writes } = await w.round();
    expect(summary(writes).filter((x) => x.startsWith('delete'))).toEqual(['delete Pod web-2']);
    for (let i = 0; i < 6; i++) {
      await w.round();
      w.kubelet();
    }
    expect(w.pods().map((p) => p.spec!.containers[0]!.image)).toEqual(['nginx:1', 'nginx:2', 'nginx:2']);
    expect(w.sts().status).toMatchObject({ updatedReplicas: 2, currentReplicas: 1 });
  });

  it('an invalid stored spec: InvalidSpec event, nothing written', async () => {
    const w = world();
    w.c.add(sts({ selector: { matchLabels: {} } }));
    const { writes } = await w.round();
    expect(writes).toEqual([]);
    expect(w.events[0]).toMatch(/^InvalidSpec: not acting on this StatefulSet until it is fixed: .*selector/);
  });

  it('replicas beyond what a cluster holds (2147483647): InvalidSpec event, nothing written, no crash', async () => {
    const w = world();
    w.c.add(sts({ replicas: 2147483647 }));
    const { writes } = await w.round();
    expect(writes).toEqual([]);
    expect(w.events[0]).toMatch(/^InvalidSpec: .*spec\.replicas: 2147483647 is more than the 150000 pods/);
  });

  it('whenScaled Delete: claims of condemned pods get the pod as owner', async () => {
    const w = world();
    const policy = { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' } };
    const vct = {
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } },
      ],
    };
    w.c.add(sts({ podManagementPolicy: 'Parallel', replicas: 2, ...policy, ...vct }));
    await w.round();
    w.kubelet();
    w.set({ podManagementPolicy: 'Parallel', replicas: 1, ...policy, ...vct });
    await w.round();
    const refs = w.c.get('PersistentVolumeClaim', NS, 'data-web-1')!.metadata!.ownerReferences;
    expect(refs).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: 'web-1',
        uid: w.c.get('Pod', NS, 'web-1')?.metadata?.uid ?? expect.any(String),
      },
    ]);
    expect(w.c.get('PersistentVolumeClaim', NS, 'data-web-0')!.metadata!.ownerReferences ?? []).toEqual([]);
  });

  it('a Failed pod (evicted) is deleted and created again under its name', async () => {
    const w = world();
    w.c.add(sts({ podManagementPolicy: 'Parallel', replicas: 2 }));
    await w.round();
    await w.round(); // their first KruisePodReady condition
    w.kubelet();
    const failed = w.pods()[1]!;
    w.c.add(<Pod>{ ...failed, status: { ...failed.status, phase: 'Failed', reason: 'Evicted' } });
    const { writes } = await w.round();
    expect(summary(writes).filter((x) => x.includes('Pod'))).toEqual(['delete Pod web-1']);
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1']);
    expect(w.pods()[1]!.metadata!.uid).not.toBe(failed.metadata!.uid);
  });

  it('gate StatefulSetStartOrdinal: ordinals.start 2 with 3 replicas → web-2, web-3, web-4', async () => {
    const w = world({ gates: { StatefulSetStartOrdinal: true } });
    w.c.add(sts({ podManagementPolicy: 'Parallel', ordinals: { start: 2 } }));
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-2', 'web-3', 'web-4']);
    // without the gate the field is ignored
    const off = world();
    off.c.add(sts({ podManagementPolicy: 'Parallel', ordinals: { start: 2 } }));
    await off.round();
    expect(off.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('a rollout is one trace: statefulset.rollout with a statefulset.pod-update span per in-place update', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const w = world({ tracer: new RolloutTracer(provider.getTracer('t'), { prefix: 'statefulset' }) });
    const ru = { partition: 0, maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible' };
    const template = (image: string) => ({
      metadata: { labels: { app: 'web' } },
      spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'c', image }] },
    });
    const spec = (image: string) => ({
      podManagementPolicy: 'Parallel',
      replicas: 2,
      template: template(image),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: ru },
    });
    w.c.add(sts(spec('nginx:1')));
    await w.round();
    w.kubelet();
    await w.round();
    w.set(spec('nginx:2'));
    for (let i = 0; i < 4; i++) {
      await w.round();
      w.kubelet();
    }
    await w.round();
    expect(w.sts().status).toMatchObject({ updatedReplicas: 2, readyReplicas: 2 });
    await provider.forceFlush();
    expect(
      exporter
        .getFinishedSpans()
        .map((s) => s.name)
        .sort(),
    ).toEqual(['statefulset.pod-update', 'statefulset.pod-update', 'statefulset.rollout']);
  });

  it('ScaleUpWithMaxUnavailable: Parallel, replicas 5, scaleStrategy.maxUnavailable 2 → 2 pods, a third once one is ready', async () => {
    const w = world();
    w.c.add(sts({ podManagementPolicy: 'Parallel', replicas: 5, scaleStrategy: { maxUnavailable: 2 } }));
    const pending = () => {
      for (const p of w.pods())
        if (!p.status?.['phase']) w.c.add(<Pod>{ ...p, status: { phase: 'Pending' } });
    };
    await w.round();
    pending();
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1']);
    expect(w.sts().status).toMatchObject({ replicas: 2 });
    w.kubelet((p) => p.metadata!.name === 'web-1');
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1', 'web-2']);
  });

  it('OrderedReady scale down: one pod at a time from the highest; an unready lower pod blocks it', async () => {
    const w = world();
    w.c.add(sts({ replicas: 3 }));
    for (let i = 0; i < 4; i++) {
      await w.round();
      w.kubelet();
    }
    w.set({ replicas: 1 });
    expect(summary((await w.round()).writes).filter((x) => x.startsWith('delete'))).toEqual([
      'delete Pod web-2',
    ]);
    expect(summary((await w.round()).writes).filter((x) => x.startsWith('delete'))).toEqual([
      'delete Pod web-1',
    ]);
    // again with web-0 unready: web-2 is not deleted while a predecessor is unhealthy
    const v = world();
    v.c.add(sts({ replicas: 3 }));
    for (let i = 0; i < 4; i++) {
      await v.round();
      v.kubelet();
    }
    v.c.add(<Pod>{
      ...v.pods()[0]!,
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
    });
    v.set({ replicas: 2 });
    expect(summary((await v.round()).writes).filter((x) => x.startsWith('delete'))).toEqual([]);
  });

  it('OrderedReady scale down under a PodUnavailableBudget: a refused deletion waits (1 s), no lower pod is deleted', async () => {
    const w = world();
    w.c.add(sts({ replicas: 3 }));
    for (let i = 0; i < 4; i++) {
      await w.round();
      w.kubelet();
    }
    w.set({ replicas: 1 });
    const refusal =
      'podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative';
    w.c.failOn((x) =>
      x.verb === 'delete' && x.name === 'web-2'
        ? new ForbiddenError({ status: 403, serverMessage: refusal })
        : undefined,
    );
    const { result } = await w.round();
    expect(result.requeueAfterMs).toBeLessThanOrEqual(1000);
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(w.events.filter((e) => e.startsWith('FailedDelete'))).toEqual([]);
    w.c.failOn(undefined);
    await w.round();
    expect(w.pods().map((p) => p.metadata!.name)).toEqual(['web-0', 'web-1']);
  });

  it('a rejected pod create: FailedCreate event, FailedCreatePod condition, the error thrown (back-off)', async () => {
    const w = world();
    w.c.add(sts());
    w.c.failOn((x) =>
      x.verb === 'create' && x.kind === 'Pod'
        ? new ForbiddenError({ status: 403, serverMessage: `pods "${x.name}" is forbidden: exceeded quota` })
        : undefined,
    );
    await expect(w.round()).rejects.toThrow(/exceeded quota/);
    expect(
      w.events.some((e) => e.startsWith('FailedCreate: create Pod web-0 in StatefulSet web failed error:')),
    ).toBe(true);
    expect(w.sts().status!['conditions']).toEqual([
      expect.objectContaining({
        type: 'FailedCreatePod',
        status: 'True',
        message: expect.stringMatching(/^StatefulPodControl failed to create Pod error: .*exceeded quota/),
      }),
    ]);
  });
});
