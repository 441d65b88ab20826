// Advanced StatefulSet scenarios on the shared local cluster (S1 §3): what a user sees — pod names
// and ordinals, claims, UIDs kept or replaced, restart counts, status and events — with the watcher and the asts
// program running as they run in the sandbox.
import { describe, expect, it } from 'vitest';
import { conditionOf, imageOf, recordPods, stateOf } from '@regatta/testing';
import { type Pod, PVC, demo, isReady, useAstsScenarios } from './testing/scenario-harness.js';

const h = useAstsScenarios();
const { namespace, pods, get, events, setImage, settled } = h;

const names = (list: Pod[]) => list.map((p) => p.metadata!.name!).sort();
const uids = (list: Pod[]) => Object.fromEntries(list.map((p) => [p.metadata!.name!, p.metadata!.uid!]));
const inPlaceTemplate = (name: string, image: string) => ({
  metadata: { labels: { app: name } },
  spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'nginx', image }] },
});

describe('Advanced StatefulSet', () => {
  it('OrderedReady create and scale: <set>-<ordinal> pods, hostname/subdomain, labels, claims created before pods', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.podManagementPolicy = 'OrderedReady';
    sts.spec.replicas = 3;
    sts.spec.updateStrategy = { type: 'RollingUpdate' };
    sts.spec['volumeClaimTemplates'] = [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ];
    await h.create(sts);
    const s = await settled(ns, 'web', 3);
    expect(s.status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      currentReplicas: 3,
      labelSelector: 'app=web',
    });
    const list = await pods(ns);
    expect(names(list)).toEqual(['web-0', 'web-1', 'web-2']);
    for (const p of list) {
      const n = p.metadata!.name!;
      expect(p.spec).toMatchObject({ hostname: n, subdomain: 'nginx-headless' });
      expect(p.metadata!.labels).toMatchObject({
        'statefulset.kubernetes.io/pod-name': n,
        'apps.kubernetes.io/pod-index': n.slice(4),
        'controller-revision-hash': s.status!.updateRevision,
      });
      expect(p.metadata!.ownerReferences![0]).toMatchObject({
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'StatefulSet',
        name: 'web',
        controller: true,
      });
    }
    // ordered: each pod was created after its predecessor
    const created = list
      .sort((a, b) => (a.metadata!.name! < b.metadata!.name! ? -1 : 1))
      .map((p) => Date.parse(p.metadata!.creationTimestamp!));
    expect(created[1]!).toBeGreaterThanOrEqual(created[0]!);
    expect(created[2]!).toBeGreaterThanOrEqual(created[1]!);
    const claims = (await h.claims(ns)).map((c) => c.metadata!.name!).sort();
    expect(claims).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
    expect((await events(ns, 'SuccessfulCreate')).map((e) => e.message)).toEqual(
      expect.arrayContaining([
        'create Claim data-web-0 Pod web-0 in StatefulSet web success',
        'create Pod web-0 in StatefulSet web successful',
      ]),
    );
    await expect
      .poll(async () => (await get(ns, 'web')).status?.volumeClaims, { timeout: 30_000 })
      .toEqual([{ volumeClaimName: 'data', compatibleReplicas: 3, compatibleReadyReplicas: 3 }]);

    // scale down: the highest ordinal goes first; claims are retained (whenScaled Retain)
    await h.patch(ns, 'web', { spec: { replicas: 1 } });
    await settled(ns, 'web', 1);
    expect(names(await pods(ns))).toEqual(['web-0']);
    expect((await h.claims(ns)).length).toBe(3);
    // scale up again: the same names and the same claims come back
    await h.patch(ns, 'web', { spec: { replicas: 3 } });
    await settled(ns, 'web', 3);
    expect(names(await pods(ns))).toEqual(['web-0', 'web-1', 'web-2']);
    expect((await h.claims(ns)).length).toBe(3);
  });

  it('in-place update (S1 §3.2, InPlaceIfPossible, Parallel, maxUnavailable 3): UIDs kept, restart count +1', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 3 },
    };
    sts.spec['template'] = inPlaceTemplate('web', 'nginx:1.25');
    await h.create(sts);
    await settled(ns, 'web', 5);
    const before = uids(await pods(ns));
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'web', 'nginx:1.27');
    const after = await settled(ns, 'web', 5, 120_000);
    const list = await pods(ns);
    expect(uids(list)).toEqual(before);
    for (const p of list) {
      expect(imageOf(p)).toBe('nginx:1.27');
      expect(p.status!.containerStatuses![0]!.restartCount).toBe(1);
      expect(isReady(p)).toBe(true);
    }
    expect(after.status!.currentRevision).toBe(after.status!.updateRevision);
    const inPlace = await events(ns, 'SuccessfulUpdatePodInPlace');
    expect(inPlace.map((e) => e.message)).toEqual(
      expect.arrayContaining([
        `successfully update pod web-4 in-place(revision ${after.status!.updateRevision})`,
      ]),
    );
    expect(inPlace.length).toBeGreaterThanOrEqual(5);
    // (lifecycle state, InPlaceUpdateReady) in the versions a watch delivers: ready again and Normal in one write,
    // never ready while still Updating (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md)
    for (const uid of Object.values(before)) {
      const seen = rec
        .of(uid)
        .map((v) => `${stateOf(v.pod)}/${conditionOf(v.pod, 'InPlaceUpdateReady')?.status}`)
        .filter((x, i, all) => i === 0 || x !== all[i - 1]);
      expect(seen.slice(seen.indexOf('Normal/False'))).toEqual([
        'Normal/False',
        'Updating/False',
        'Normal/True',
      ]);
    }
  });

  it('partition (S1 §3.1): partition 4 updates only web-4; partition 0 updates the rest, UIDs replaced (ReCreate)', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3, partition: 4 } };
    await h.create(sts);
    await settled(ns, 'web', 5);
    const before = uids(await pods(ns));
    await setImage(ns, 'web', 'nginx:1.27');
    await expect
      .poll(
        async () => {
          const s = await get(ns, 'web');
          return (
            s.status?.updatedReplicas === 1 &&
            s.status.readyReplicas === 5 &&
            s.status.observedGeneration === s.metadata!.generation
          );
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    const mid = await pods(ns);
    expect(
      mid.filter((p) => imageOf(p) === 'nginx:1.27').map((p) => p.metadata!.name),
    ).toEqual(['web-4']);
    expect(uids(mid)['web-4']).not.toBe(before['web-4']);
    expect(uids(mid)['web-0']).toBe(before['web-0']);

    await h.patch(ns, 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await settled(ns, 'web', 5, 120_000);
    const end = await pods(ns);
    expect(end.every((p) => imageOf(p) === 'nginx:1.27')).toBe(true);
    expect(Object.values(uids(end)).some((u) => Object.values(before).includes(u))).toBe(false);
  });

  it('reserveOrdinals (S1 §3): [1] → 0,2,3,4; adding 3 moves web-3 to web-5; with replicas 3 → 0,2,4', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 4;
    sts.spec['reserveOrdinals'] = [1];
    await h.create(sts);
    await settled(ns, 'web', 4);
    expect(names(await pods(ns))).toEqual(['web-0', 'web-2', 'web-3', 'web-4']);
    await h.patch(ns, 'web', { spec: { reserveOrdinals: [1, 3] } });
    await expect
      .poll(async () => names(await pods(ns)), { timeout: 60_000 })
      .toEqual(['web-0', 'web-2', 'web-4', 'web-5']);
    await settled(ns, 'web', 4);
    await h.patch(ns, 'web', { spec: { replicas: 3 } });
    await expect
      .poll(async () => names(await pods(ns)), { timeout: 60_000 })
      .toEqual(['web-0', 'web-2', 'web-4']);
  });

  it('reserveOrdinals with a range and whenScaled Delete: claims of 1,6,7; scale to 1 leaves only the claim of 1', async () => {
    const ns = await namespace();
    const sts = demo(ns, 'web');
    sts.spec.replicas = 3;
    sts.spec['reserveOrdinals'] = [0, '2-5'];
    sts.spec['persistentVolumeClaimRetentionPolicy'] = { whenDeleted: 'Retain', whenScaled: 'Delete' };
    sts.spec['volumeClaimTemplates'] = [
      {
        metadata: { name: 'data' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ];
    await h.create(sts);
    await settled(ns, 'web', 3);
    expect(names(await pods(ns))).toEqual(['web-1', 'web-6', 'web-7']);
    expect((await h.claims(ns)).map((c) => c.metadata!.name).sort()).toEqual([
      'data-web-1',
      'data-web-6',
      'data-web-7',
    ]);
    await h.patch(ns, 'web', { spec: { replicas: 1 } });
    await settled(ns, 'web', 1);
    await expect
      .poll(
        async () =>
          (await h.client.list({ ...PVC, namespace: ns })).items
            .filter((c) => !c.metadata?.deletionTimestamp)
            .map((c) => c.metadata!.name),
        { timeout: 60_000 },
      )
      .toEqual(['data-web-1']);
  });

  it('a rollout is one trace in Jaeger (service regatta-asts): statefulset.rollout with a pod-update span per pod', async () => {
    expect(h.jaegerQuery).toBeDefined();
    const ns = await namespace();
    const sts = demo(ns, 'traced');
    sts.spec.replicas = 2;
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 1 },
    };
    sts.spec['template'] = inPlaceTemplate('traced', 'nginx:1.25');
    await h.create(sts);
    const before = await settled(ns, 'traced', 2);
    await setImage(ns, 'traced', 'nginx:1.27');
    const after = await settled(ns, 'traced', 2, 90_000);
    await expect
      .poll(
        async () =>
          JSON.parse((await get(ns, 'traced')).metadata!.annotations!['regatta.dev/rollout-trace'] ?? '{}'),
        { timeout: 20_000 },
      )
      .toMatchObject({ from: before.status!.updateRevision, to: after.status!.updateRevision, done: true });
    await expect
      .poll(async () => (await h.rolloutSpans(ns, 'traced')).map((sp) => sp.operationName).sort(), {
        timeout: 40_000,
        interval: 1000,
      })
      .toEqual(['statefulset.pod-update', 'statefulset.pod-update', 'statefulset.rollout']);
  });
});
