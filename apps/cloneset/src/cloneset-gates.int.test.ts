// CloneSet scenarios that need feature gates off by default: RecreatePodWhenChangeVCTInCloneSetGate
// (a volumeClaimTemplates change recreates pods with new PVCs), PreparingUpdateAsUpdate (a pod in
// PreparingUpdate counts as updated when scaling), as OpenKruise's e2e exercises them, and CloneSetPartitionRollback
// (a raised partition rolls updated pods back in place).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import { type CloneSet, type Pod, POD, specOf, useCloneSetScenarios } from './testing/scenario-harness.js';
import { REVISION, INSTANCE_ID, uidOf, nameOf, stateOf, holds } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios({
  env: {
    REGATTA_FEATURE_GATES:
      'PreparingUpdateAsUpdate=true,RecreatePodWhenChangeVCTInCloneSetGate=true,CloneSetPartitionRollback=true',
  },
});
const { namespace, pods, cloneSet, events, patch, setImage, settled } = h;

interface Claim extends KubeObject {
  spec: { resources: { requests: { storage: string } } };
}
interface Template {
  metadata: { labels: Record<string, string> };
  spec: { containers: Record<string, unknown>[]; [key: string]: unknown };
}

const idOf = (o: { metadata?: { labels?: Record<string, string> } }): string =>
  o.metadata?.labels?.[INSTANCE_ID] ?? '';
const templateOf = (cs: CloneSet): Template => cs.spec['template'] as Template;

describe('CloneSet with RecreatePodWhenChangeVCTInCloneSetGate and PreparingUpdateAsUpdate on', () => {
  it('volumeClaimTemplates change (e2e "Update with VolumeClaimTemplate changes"): image + VCT recreates pods and PVCs; VCT alone rolls nothing; the next image change recreates with the new VCT; InPlaceOnly ignores VCTs', async () => {
    const ns = await namespace();
    const vct = (vol1: string, vol2: string) =>
      [
        ['data-vol1', vol1],
        ['data-vol2', vol2],
      ].map(([name, storage]) => ({
        metadata: { name },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
      }));
    const withImage = async (image: string) =>
      templateOf(await cloneSet(ns, 'vct')).spec.containers.map((c, i) => (i === 0 ? { ...c, image } : c));
    await h.createDemo(ns, 'vct', (cs) => {
      cs.spec.replicas = 2;
      cs.spec.updateStrategy = { type: 'ReCreate' };
      templateOf(cs).spec.containers[0]!['volumeMounts'] = [
        { name: 'data-vol1', mountPath: '/data1' },
        { name: 'data-vol2', mountPath: '/data2' },
      ];
      cs.spec['volumeClaimTemplates'] = vct('1Gi', '1Gi');
    });

    /** Pods and claims once the CloneSet is settled and every claim belongs to a live pod (2 per pod). */
    const observe = async () => {
      const cs = await settled(ns, 'vct', 2, 60_000);
      // every live pod has its two claims, and no claim is left from a pod that is gone
      const expected = async () =>
        (await pods(ns))
          .map(idOf)
          .flatMap((id) => [`data-vol1-vct-${id}`, `data-vol2-vct-${id}`])
          .sort();
      const live = async () =>
        (await h.client.list<Claim>({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns })).items
          .filter((c) => !c.metadata?.deletionTimestamp)
          .map(nameOf)
          .sort();
      await expect
        .poll(async () => JSON.stringify(await live()) === JSON.stringify(await expected()), {
          timeout: 30_000,
          interval: 500,
        })
        .toBe(true);
      const list = await pods(ns);
      const claims = (
        await h.client.list<Claim>({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns })
      ).items.filter((c) => !c.metadata?.deletionTimestamp);
      for (const p of list) {
        expect((p.spec as { volumes?: unknown[] }).volumes).toEqual(
          expect.arrayContaining([
            { name: 'data-vol1', persistentVolumeClaim: { claimName: `data-vol1-vct-${idOf(p)}` } },
            { name: 'data-vol2', persistentVolumeClaim: { claimName: `data-vol2-vct-${idOf(p)}` } },
          ]),
        );
      }
      return {
        cs,
        ids: list.map(idOf).sort(),
        podUids: list.map(uidOf).sort(),
        claimUids: claims.map(uidOf).sort(),
        sizes: Object.fromEntries(claims.map((c) => [nameOf(c), c.spec.resources.requests.storage])),
        pods: list,
      };
    };
    const sizesOf = (o: { ids: string[] }, vol1: string, vol2: string) =>
      Object.fromEntries(
        o.ids.flatMap((id) => [
          [`data-vol1-vct-${id}`, vol1],
          [`data-vol2-vct-${id}`, vol2],
        ]),
      );
    const disjoint = (a: string[], b: string[]) => expect(a.filter((v) => b.includes(v))).toEqual([]);

    const s0 = await observe();
    expect(s0.sizes).toEqual(sizesOf(s0, '1Gi', '1Gi'));

    // 1. image + data-vol1 2Gi, now InPlaceIfPossible: the VCT hash differs, so the pods and their claims are recreated
    await patch(ns, 'vct', {
      spec: {
        updateStrategy: { type: 'InPlaceIfPossible' },
        template: { spec: { containers: await withImage('nginx:mainline') } },
        volumeClaimTemplates: vct('2Gi', '1Gi'),
      },
    });
    await expect
      .poll(async () => (await cloneSet(ns, 'vct')).status?.updateRevision, { timeout: 10_000 })
      .not.toBe(s0.cs.status!.updateRevision);
    const s1 = await observe();
    disjoint(s1.ids, s0.ids);
    disjoint(s1.podUids, s0.podUids);
    disjoint(s1.claimUids, s0.claimUids);
    expect(s1.sizes).toEqual(sizesOf(s1, '2Gi', '1Gi'));
    for (const p of s1.pods) expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
    expect((await events(ns, 'SuccessfulUpdatePodReCreate')).length).toBe(2);
    expect(await events(ns, 'SuccessfulUpdatePodInPlace')).toEqual([]);

    // 2. only data-vol2 → 2Gi: no new revision, nothing rolls, the claims stay as they are
    await patch(ns, 'vct', { spec: { volumeClaimTemplates: vct('2Gi', '2Gi') } });
    await h.observed(ns, 'vct');
    await holds(
      3_000,
      async () => ({ cs: await cloneSet(ns, 'vct'), pods: await pods(ns) }),
      (v) => {
        expect(v.cs.status!.updateRevision).toBe(s1.cs.status!.updateRevision);
        expect(v.cs.status!.updatedReplicas).toBe(2);
        expect(v.pods.map(uidOf).sort()).toEqual(s1.podUids);
      },
    );
    const s2 = await observe();
    expect(s2.claimUids).toEqual(s1.claimUids);
    expect(s2.sizes).toEqual(sizesOf(s2, '2Gi', '1Gi'));

    // 3. then an image change alone: recreated again, now with the VCT of step 2 (both 2Gi)
    await patch(ns, 'vct', { spec: { template: { spec: { containers: await withImage('nginx:stable') } } } });
    await expect
      .poll(async () => (await cloneSet(ns, 'vct')).status?.updateRevision, { timeout: 10_000 })
      .not.toBe(s2.cs.status!.updateRevision);
    const s3 = await observe();
    disjoint(s3.ids, s2.ids);
    disjoint(s3.podUids, s2.podUids);
    disjoint(s3.claimUids, s2.claimUids);
    expect(s3.sizes).toEqual(sizesOf(s3, '2Gi', '2Gi'));
    expect((await events(ns, 'SuccessfulUpdatePodReCreate')).length).toBe(4);

    // 4. InPlaceOnly with an image change: in place, same pods and claims
    await patch(ns, 'vct', {
      spec: {
        updateStrategy: { type: 'InPlaceOnly' },
        template: { spec: { containers: await withImage('httpd:alpine') } },
      },
    });
    await expect
      .poll(async () => (await cloneSet(ns, 'vct')).status?.updateRevision, { timeout: 10_000 })
      .not.toBe(s3.cs.status!.updateRevision);
    const s4 = await observe();
    expect(s4.podUids).toEqual(s3.podUids);
    expect(s4.claimUids).toEqual(s3.claimUids);
    for (const p of s4.pods)
      expect(p.status!.containerStatuses![0]).toMatchObject({ image: 'httpd:alpine', restartCount: 1 });

    // 5. InPlaceOnly with an image and a VCT change: the VCT hash is ignored, in place, the claims keep their size
    await patch(ns, 'vct', {
      spec: {
        template: { spec: { containers: await withImage('nginx:stable') } },
        volumeClaimTemplates: vct('3Gi', '3Gi'),
      },
    });
    await expect
      .poll(async () => (await cloneSet(ns, 'vct')).status?.updateRevision, { timeout: 10_000 })
      .not.toBe(s4.cs.status!.updateRevision);
    const s5 = await observe();
    expect(s5.podUids).toEqual(s3.podUids);
    expect(s5.claimUids).toEqual(s3.claimUids);
    expect(s5.sizes).toEqual(sizesOf(s5, '2Gi', '2Gi'));
    for (const p of s5.pods)
      expect(p.status!.containerStatuses![0]).toMatchObject({ image: 'nginx:stable', restartCount: 2 });
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(4);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(6);
  });

  it('PreparingUpdateAsUpdate (e2e "regard preparing-update pod as update when scaling"): a PreparingUpdate pod counts as updated, so replacements and scale-ups are at the current revision', async () => {
    const ns = await namespace();
    const HOOK = 'preparing-update-hook';
    await h.createDemo(ns, 'pua', (cs) => {
      cs.spec.replicas = 2;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: '50%', partition: '99%' };
      cs.spec['lifecycle'] = { inPlaceUpdate: { labelsHandler: { [HOOK]: 'true' } } };
      templateOf(cs).metadata.labels[HOOK] = 'true';
    });
    const first = await settled(ns, 'pua', 2);
    const currentRev = first.status!.updateRevision!;
    const releaseHook = (p: Pod) =>
      h.client.patch(
        { ...POD, namespace: ns, name: nameOf(p) },
        { metadata: { labels: { [HOOK]: null } } },
        { type: 'merge' },
      );

    await setImage(ns, 'pua', 'nginx:mainline');
    await expect
      .poll(async () => (await cloneSet(ns, 'pua')).status?.updateRevision, { timeout: 10_000 })
      .not.toBe(currentRev);
    const updateRev = (await cloneSet(ns, 'pua')).status!.updateRevision!;
    /** Pods by revision (current / updated) and those in PreparingUpdate. */
    const groups = async () => {
      const list = await pods(ns);
      return {
        current: list.filter((p) => p.metadata!.labels![REVISION] === currentRev).length,
        updated: list.filter((p) => p.metadata!.labels![REVISION] === updateRev).length,
        preparing: list.filter((p) => stateOf(p) === 'PreparingUpdate').length,
        total: list.length,
      };
    };

    // partition 99% of 2 leaves 1 pod to update: it is hooked, so it waits in PreparingUpdate, still at the old revision
    await expect
      .poll(groups, { timeout: 20_000 })
      .toEqual({ current: 2, updated: 0, preparing: 1, total: 2 });
    expect((await cloneSet(ns, 'pua')).status).toMatchObject({
      expectedUpdatedReplicas: 1,
      updatedReplicas: 0,
    });
    const waiting = (await pods(ns)).find((p) => stateOf(p) === 'PreparingUpdate')!;
    const other = (await pods(ns)).find((p) => uidOf(p) !== uidOf(waiting))!;

    // the other pod is deleted: as the waiting pod already counts as updated, its replacement is a current one
    await h.client.delete({ ...POD, namespace: ns, name: nameOf(other) });
    await expect
      .poll(
        async () => {
          const list = await pods(ns);
          return list.length === 2 && !list.some((p) => uidOf(p) === uidOf(other));
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await holds(2_000, groups, (g) => expect(g).toEqual({ current: 2, updated: 0, preparing: 1, total: 2 }));
    const replacement = (await pods(ns)).find((p) => uidOf(p) !== uidOf(waiting))!;
    expect(replacement.metadata!.labels![REVISION]).toBe(currentRev);

    // scale to 3 (partition 99% → 2 kept): the new pod is a current one as well
    await patch(ns, 'pua', { spec: { replicas: 3 } });
    await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(3);
    await holds(2_000, groups, (g) => expect(g).toEqual({ current: 3, updated: 0, preparing: 1, total: 3 }));
    expect((await cloneSet(ns, 'pua')).status!.expectedUpdatedReplicas).toBe(1);

    // the user's hook lets the waiting pod go: it is updated in place
    await releaseHook(waiting);
    await expect
      .poll(groups, { timeout: 30_000 })
      .toEqual({ current: 2, updated: 1, preparing: 0, total: 3 });
    await holds(2_000, groups, (g) => expect(g).toEqual({ current: 2, updated: 1, preparing: 0, total: 3 }));
    const updated = (await pods(ns)).find((p) => p.metadata!.labels![REVISION] === updateRev)!;
    expect(uidOf(updated)).toBe(uidOf(waiting));
    expect(updated.status!.containerStatuses![0]).toMatchObject({ image: 'nginx:mainline', restartCount: 1 });

    // no partition, maxUnavailable 100%: both current pods are hooked, so both wait in PreparingUpdate
    await patch(ns, 'pua', { spec: { updateStrategy: { partition: null, maxUnavailable: '100%' } } });
    await expect
      .poll(groups, { timeout: 30_000 })
      .toEqual({ current: 2, updated: 1, preparing: 2, total: 3 });
    for (const p of (await pods(ns)).filter((q) => stateOf(q) === 'PreparingUpdate')) await releaseHook(p);
    await expect
      .poll(groups, { timeout: 30_000 })
      .toEqual({ current: 0, updated: 3, preparing: 0, total: 3 });
    const done = await settled(ns, 'pua', 3);
    expect(done.status!.currentRevision).toBe(updateRev);
    const uids = [uidOf(waiting), uidOf(replacement)];
    expect((await pods(ns)).map(uidOf)).toEqual(expect.arrayContaining(uids));
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(4);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(3);
  });

  it('CloneSetPartitionRollback: raising the partition rolls the pods above it back to the current revision, in place', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'rb', (cs) => {
      cs.spec.replicas = 4;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: '100%', partition: 4 };
    });
    const first = await settled(ns, 'rb', 4);
    const currentRev = first.status!.updateRevision!;
    const uids = (await pods(ns)).map(uidOf).sort();
    const byRevision = async () => {
      const list = await pods(ns);
      return {
        current: list.filter((p) => p.metadata!.labels![REVISION] === currentRev).length,
        other: list.filter((p) => p.metadata!.labels![REVISION] !== currentRev).length,
      };
    };

    // partition 2 of 4: two pods go to the new image, the CloneSet's current revision stays the old one
    await setImage(ns, 'rb', 'nginx:mainline');
    await patch(ns, 'rb', { spec: { updateStrategy: { partition: 2 } } });
    await expect.poll(byRevision, { timeout: 30_000 }).toEqual({ current: 2, other: 2 });
    const half = await cloneSet(ns, 'rb');
    expect(half.status!.currentRevision).toBe(currentRev);

    // partition back to 4: with the gate on, both updated pods return to the current revision, same pods
    await patch(ns, 'rb', { spec: { updateStrategy: { partition: 4 } } });
    await expect.poll(byRevision, { timeout: 30_000 }).toEqual({ current: 4, other: 0 });
    await holds(2_000, byRevision, (g) => expect(g).toEqual({ current: 4, other: 0 }));
    const list = await pods(ns);
    expect(list.map(uidOf).sort()).toEqual(uids);
    for (const p of list) expect(p.spec!.containers![0]!.image).toBe(templateOf(first).spec.containers[0]!['image']);
    const done = await cloneSet(ns, 'rb');
    expect(done.status).toMatchObject({ replicas: 4, updatedReplicas: 0, currentRevision: currentRev });
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(4);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(4); // 2 forward, 2 back
  });
});
