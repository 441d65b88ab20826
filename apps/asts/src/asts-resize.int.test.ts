// Volume claim resize on rolling update (gate StatefulSetAutoResizePVCGate, volumeClaimUpdateStrategy
// OnPodRollingUpdate) on the shared local cluster, whose node simulator makes the `allow-volume-expansion` /
// `disallow-volume-expansion` StorageClasses and resizes claims of expandable classes (docs/asts.md
// "Volume claim resize"; OpenKruise test/e2e/apps/v1beta1/statefulset.go "VolumeExpansion v1beta1"); and in-place
// resize of the pods' cpu/memory through pods/resize (docs/adr/0087-in-place-resource-resize.md): same pods, the
// node reporting the new resources, a resize no node can hold reported in the PodResizeInfeasible condition until
// the template fits again.
import { describe, expect, it } from 'vitest';
import { holds } from '@regatta/testing';
import { type Pod, type StatefulSet, demo, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios({ env: { REGATTA_FEATURE_GATES: 'StatefulSetAutoResizePVCGate=true' } });
const { namespace, pods, settled } = h;

interface Claim {
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: { resources?: { requests?: Record<string, string> } };
  status?: { capacity?: Record<string, string> };
}

const template = (name: string, storageClassName: string, storage: string) => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage } } },
});

/** 3 replicas, OrderedReady, one pod at a time, claims on `classes` (1Gi each) resized on rolling update. */
function resizable(ns: string, inPlace: boolean, ...classes: string[]): StatefulSet {
  const sts = demo(ns, 'web');
  sts.spec.replicas = 3;
  sts.spec['podManagementPolicy'] = 'OrderedReady';
  sts.spec.updateStrategy = {
    type: 'RollingUpdate',
    rollingUpdate: { podUpdatePolicy: inPlace ? 'InPlaceIfPossible' : 'ReCreate' },
  };
  if (inPlace)
    (sts.spec['template'] as { spec: Record<string, unknown> }).spec['readinessGates'] = [
      { conditionType: 'InPlaceUpdateReady' },
    ];
  sts.spec['volumeClaimUpdateStrategy'] = { type: 'OnPodRollingUpdate' };
  sts.spec['volumeClaimTemplates'] = classes.map((sc, i) => template(`data${i}`, sc, '1Gi'));
  return sts;
}

const sizes = async (ns: string) =>
  ((await h.claims(ns)) as Claim[])
    .map(
      (c) =>
        `${c.metadata?.name}=${c.spec?.resources?.requests?.['storage']}/${c.status?.capacity?.['storage']}`,
    )
    .sort();

describe('Advanced StatefulSet volume claim resize (StatefulSetAutoResizePVCGate)', () => {
  it('image and claim size together (ReCreate): every claim grows to 2Gi, then its pod is recreated at the new image', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, false, 'allow-volume-expansion'));
    await settled(ns, 'web', 3);
    expect(await sizes(ns)).toEqual(['data0-web-0=1Gi/1Gi', 'data0-web-1=1Gi/1Gi', 'data0-web-2=1Gi/1Gi']);
    const before = new Map((await pods(ns)).map((p) => [p.metadata!.name!, p.metadata!.uid]));

    await h.patch(ns, 'web', {
      spec: {
        template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.26' }] } },
        volumeClaimTemplates: [template('data0', 'allow-volume-expansion', '2Gi')],
      },
    });
    await expect
      .poll(() => sizes(ns), { timeout: 180_000, interval: 1000 })
      .toEqual(['data0-web-0=2Gi/2Gi', 'data0-web-1=2Gi/2Gi', 'data0-web-2=2Gi/2Gi']);
    const done = await settled(ns, 'web', 3, 180_000);
    expect(done.status?.volumeClaims).toEqual([
      { volumeClaimName: 'data0', compatibleReplicas: 3, compatibleReadyReplicas: 3 },
    ]);
    for (const p of await pods(ns)) {
      expect(p.spec?.containers?.[0]?.image).toBe('nginx:1.26');
      expect(p.metadata!.uid).not.toBe(before.get(p.metadata!.name!));
    }
    const claims = (await h.claims(ns)) as Claim[];
    for (const c of claims) expect(c.metadata?.annotations?.['apps.kruise.io/owned-by-asts']).toBe('web');
    await expect
      .poll(async () => (await h.events(ns, 'SuccessfulResize')).map((e) => e.message).sort())
      .toEqual([
        'resize Claim data0-web-0 Pod web-0 in StatefulSet web success',
        'resize Claim data0-web-1 Pod web-1 in StatefulSet web success',
        'resize Claim data0-web-2 Pod web-2 in StatefulSet web success',
      ]);
  });

  it('claim size only (InPlaceIfPossible): the claims grow and the pods are kept', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, true, 'allow-volume-expansion', 'disallow-volume-expansion'));
    await settled(ns, 'web', 3);
    const before = new Map((await pods(ns)).map((p) => [p.metadata!.name!, p.metadata!.uid]));
    // only the template on the expandable class grows
    await h.patch(ns, 'web', {
      spec: {
        volumeClaimTemplates: [
          template('data0', 'allow-volume-expansion', '2Gi'),
          template('data1', 'disallow-volume-expansion', '1Gi'),
        ],
      },
    });
    await expect
      .poll(() => sizes(ns), { timeout: 180_000, interval: 1000 })
      .toEqual([
        'data0-web-0=2Gi/2Gi',
        'data0-web-1=2Gi/2Gi',
        'data0-web-2=2Gi/2Gi',
        'data1-web-0=1Gi/1Gi',
        'data1-web-1=1Gi/1Gi',
        'data1-web-2=1Gi/1Gi',
      ]);
    await expect
      .poll(async () => (await h.get(ns, 'web')).status?.volumeClaims, { timeout: 60_000 })
      .toEqual([
        { volumeClaimName: 'data0', compatibleReplicas: 3, compatibleReadyReplicas: 3 },
        { volumeClaimName: 'data1', compatibleReplicas: 3, compatibleReadyReplicas: 3 },
      ]);
    await settled(ns, 'web', 3);
    for (const p of await pods(ns)) expect(p.metadata!.uid).toBe(before.get(p.metadata!.name!));
  });

  it('webhook: growing a claim on a class without expansion, or adding a template, is refused', async () => {
    const ns = await namespace();
    await h.create(resizable(ns, false, 'disallow-volume-expansion'));
    await settled(ns, 'web', 3);
    await expect(
      h.patch(ns, 'web', {
        spec: { volumeClaimTemplates: [template('data0', 'disallow-volume-expansion', '2Gi')] },
      }),
    ).rejects.toThrow(/storage class disallow-volume-expansion does not support volume expansion/);
    await expect(
      h.patch(ns, 'web', {
        spec: {
          volumeClaimTemplates: [
            template('data0', 'disallow-volume-expansion', '1Gi'),
            template('more', 'allow-volume-expansion', '1Gi'),
          ],
        },
      }),
    ).rejects.toThrow(/volumeClaimTemplate can not be added or deleted when OnRollingUpdate/);
    expect(await sizes(ns)).toEqual(['data0-web-0=1Gi/1Gi', 'data0-web-1=1Gi/1Gi', 'data0-web-2=1Gi/1Gi']);
  });
});

const uidOf = (p: Pod) => p.metadata!.uid!;
const statusOf = (p: Pod) =>
  p.status?.containerStatuses?.[0] as
    | { restartCount?: number; containerID?: string; resources?: { limits?: Record<string, string> } }
    | undefined;
const cpuResources = (limit: string, request = '50m') => ({
  requests: { cpu: request, memory: '64Mi' },
  limits: { cpu: limit, memory: '128Mi' },
});
type Container = { name: string; resources?: unknown };
const containerOf = (sts: StatefulSet) =>
  (sts.spec['template'] as { spec: { containers: Container[] } }).spec.containers[0]!;
const infeasibleCondition = async (ns: string, name: string) =>
  (
    ((await h.get(ns, name)).status as { conditions?: { type: string; status: string; message?: string }[] })
      .conditions ?? []
  ).filter((c) => c.type === 'PodResizeInfeasible');

/** 3 replicas, InPlaceIfPossible (InPlaceUpdateReady gate), nginx with cpu/memory requests and limits (Burstable). */
function resizablePods(ns: string, name: string): StatefulSet {
  const sts = demo(ns, name);
  sts.spec.replicas = 3;
  sts.spec.updateStrategy = {
    type: 'RollingUpdate',
    rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 },
  };
  const spec = (sts.spec['template'] as { spec: Record<string, unknown> & { containers: Container[] } }).spec;
  spec['readinessGates'] = [{ conditionType: 'InPlaceUpdateReady' }];
  spec.containers[0]!.resources = cpuResources('100m');
  return sts;
}

async function setResources(ns: string, name: string, resources: unknown): Promise<void> {
  const c = containerOf(await h.get(ns, name));
  await h.patch(ns, name, { spec: { template: { spec: { containers: [{ ...c, resources }] } } } });
}

describe('Advanced StatefulSet in-place resize (pods/resize)', () => {
  it('a CPU limit change updates every pod in place: same UIDs, no restart, new resources reported', async () => {
    const ns = await namespace();
    await h.create(resizablePods(ns, 'cpu'));
    const first = await settled(ns, 'cpu', 3);
    const before = await pods(ns);

    await setResources(ns, 'cpu', cpuResources('200m'));
    await expect
      .poll(
        async () => (await pods(ns)).filter((p) => statusOf(p)?.resources?.limits?.['cpu'] === '200m').length,
        { timeout: 90_000 },
      )
      .toBe(3);
    const done = await settled(ns, 'cpu', 3);
    expect(done.status!.updateRevision).not.toBe(first.status!.updateRevision);
    expect(done.status).toMatchObject({ updatedReplicas: 3, updatedReadyReplicas: 3, currentReplicas: 3 });
    const after = await pods(ns);
    expect(after.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
    for (const p of after) {
      const old = before.find((b) => uidOf(b) === uidOf(p))!;
      expect(p.metadata!.labels!['controller-revision-hash']).toBe(done.status!.updateRevision);
      expect(p.spec!.containers![0]!.resources).toMatchObject({ limits: { cpu: '200m', memory: '128Mi' } });
      expect(statusOf(p)?.resources).toMatchObject({ limits: { cpu: '200m' } });
      expect(statusOf(p)?.restartCount).toBe(0);
      expect(statusOf(p)?.containerID).toBe(statusOf(old)?.containerID);
    }
    await expect
      .poll(async () => (await h.events(ns, 'SuccessfulUpdatePodInPlace')).length, { timeout: 20_000 })
      .toBe(3);
    expect(await h.events(ns, 'SuccessfulDelete')).toEqual([]);
  });

  it('a resize no node can hold sets PodResizeInfeasible; a template that fits again removes it', async () => {
    const ns = await namespace();
    await h.create(resizablePods(ns, 'big'));
    await settled(ns, 'big', 3);
    const before = await pods(ns);
    // the simulated nodes allocate 8 CPUs: the API server refuses the pods/resize write (Kubernetes 1.35+)
    await setResources(ns, 'big', cpuResources('64', '64'));
    await expect
      .poll(async () => (await infeasibleCondition(ns, 'big'))[0]?.message ?? '', { timeout: 30_000 })
      .toMatch(/^the node refused to resize (pod|\d pods) in place \(big-\d: .*allocatable.*cpu/);
    await holds(
      3_000,
      () => pods(ns),
      (list) => {
        expect(list.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
        for (const p of list) expect(statusOf(p)?.resources).toMatchObject({ limits: { cpu: '100m' } });
      },
    );
    expect(await h.events(ns, 'FailedUpdatePodInPlace')).toEqual([]);

    await setResources(ns, 'big', cpuResources('100m'));
    await expect.poll(() => infeasibleCondition(ns, 'big'), { timeout: 30_000 }).toEqual([]);
    await settled(ns, 'big', 3);
    const kept = await pods(ns);
    expect(kept.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
    for (const p of kept) expect(statusOf(p)?.restartCount).toBe(0);
  });
});
