// CloneSet scale scenarios on the shared local cluster (S1 §2.1): which pods go when a user
// names them (podsToDelete, the specified-delete label), in which order pods go when scaling in
// (pod-deletion-cost, readiness), how PreparingDelete pods count (excludePreparingDelete), and what a
// volumeClaimTemplates change does with the default feature gates.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import {
  type CloneSet,
  type Pod,
  CS,
  POD,
  isReady,
  specOf,
  useCloneSetScenarios,
} from './testing/scenario-harness.js';
import { STATE, SPECIFIED_DELETE, DELETION_COST, uidOf, nameOf, holds } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, patch, settled } = h;

const EXCLUDE_PREPARING_DELETE = 'apps.kruise.io/cloneset-scaling-exclude-preparing-delete';
const HOOK = 'example.com/hold-delete';

/** The template's containers with a new image for the first one (a merge patch replaces the whole list). */
const withImage = (cs: CloneSet, image: string) => {
  const template = cs.spec['template'] as { spec: { containers: Record<string, unknown>[] } };
  return template.spec.containers.map((c, i) => (i === 0 ? { ...c, image } : c));
};

describe('CloneSet scale', () => {
  it('deleted with propagationPolicy Orphan: the CloneSet goes; its pods and revisions stay, owned by nothing', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'orphan');
    await settled(ns, 'orphan', 3);
    const before = (await pods(ns)).map(uidOf).sort();
    await h.client.delete({ ...CS, namespace: ns, name: 'orphan' }, { propagationPolicy: 'Orphan' });
    // the garbage collector patches the owner reference out of every pod and revision, then drops the finalizer;
    // a revision whose data the API server re-encodes differently would refuse that patch and keep the CloneSet
    await expect
      .poll(
        async () => (await h.client.getOrUndefined({ ...CS, namespace: ns, name: 'orphan' })) === undefined,
        {
          timeout: 90_000,
        },
      )
      .toBe(true);
    const revisions = (
      await h.client.list({ apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace: ns })
    ).items;
    expect(revisions.length).toBeGreaterThan(0);
    expect(revisions.filter((r) => (r.metadata?.ownerReferences ?? []).length > 0)).toEqual([]);
    const after = await pods(ns);
    expect(after.map(uidOf).sort()).toEqual(before);
    expect(after.filter((p) => (p.metadata?.ownerReferences ?? []).length > 0)).toEqual([]);
  });

  it('podsToDelete (S1 §2.1.2) with replicas kept: the named pod is deleted and replaced, then pruned from the list', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'ptd');
    await settled(ns, 'ptd', 3);
    const before = await pods(ns);
    const victim = before[1]!;
    const others = before.filter((p) => p !== victim).map(uidOf);

    // the webhook only accepts names of live pods of this CloneSet
    await expect(
      patch(ns, 'ptd', { spec: { scaleStrategy: { podsToDelete: ['ptd-nosuch'] } } }),
    ).rejects.toThrow(/spec\.scaleStrategy\.podsToDelete.*find pod ptd-nosuch failed/);

    await patch(ns, 'ptd', { spec: { scaleStrategy: { podsToDelete: [nameOf(victim)] } } });
    await expect
      .poll(async () => (await pods(ns)).some((p) => uidOf(p) === uidOf(victim)), { timeout: 30_000 })
      .toBe(false);
    const after = await settled(ns, 'ptd', 3);
    const now = await pods(ns);
    // the other two pods are untouched; the third is a new pod with a new name
    expect(now.filter((p) => others.includes(uidOf(p)))).toHaveLength(2);
    const replacement = now.find((p) => !others.includes(uidOf(p)))!;
    expect(nameOf(replacement)).not.toBe(nameOf(victim));
    expect(replacement.metadata!.labels!['controller-revision-hash']).toBe(after.status!.updateRevision);
    // the deleted pod's name is pruned from podsToDelete
    await expect
      .poll(
        async () =>
          ((await cloneSet(ns, 'ptd')).spec['scaleStrategy'] as { podsToDelete?: string[] } | undefined)
            ?.podsToDelete ?? [],
        { timeout: 15_000 },
      )
      .toEqual([]);
    await expect
      .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message), { timeout: 10_000 })
      .toEqual([`succeed to delete pod ${nameOf(victim)}`]);
    await expect.poll(async () => (await events(ns, 'SuccessfulCreate')).length, { timeout: 10_000 }).toBe(4);
  });

  it('podsToDelete (S1 §2.1.2) with replicas reduced by one at the same time: the named pod goes and is not replaced', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'ptd-down');
    await settled(ns, 'ptd-down', 3);
    const before = await pods(ns);
    const victim = before[2]!;
    await patch(ns, 'ptd-down', { spec: { replicas: 2, scaleStrategy: { podsToDelete: [nameOf(victim)] } } });
    await settled(ns, 'ptd-down', 2);
    const left = await holds(
      3_000,
      () => pods(ns),
      (now) =>
        expect(now.map(uidOf).sort()).toEqual(
          before
            .filter((p) => p !== victim)
            .map(uidOf)
            .sort(),
        ),
    );
    expect(left).toHaveLength(2);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(3);
    expect((await events(ns, 'SuccessfulDelete')).map((e) => e.message)).toEqual([
      `succeed to delete pod ${nameOf(victim)}`,
    ]);
    await expect
      .poll(
        async () =>
          ((await cloneSet(ns, 'ptd-down')).spec['scaleStrategy'] as { podsToDelete?: string[] } | undefined)
            ?.podsToDelete ?? [],
        { timeout: 15_000 },
      )
      .toEqual([]);
  });

  it('the specified-delete label (S1 §2.1.2) on a pod: it is deleted and replaced, the others stay', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'sdl');
    await settled(ns, 'sdl', 3);
    const before = await pods(ns);
    const victim = before[0]!;
    await h.patchPod(ns, nameOf(victim), { metadata: { labels: { [SPECIFIED_DELETE]: 'true' } } });
    await expect
      .poll(async () => (await pods(ns)).some((p) => uidOf(p) === uidOf(victim)), { timeout: 30_000 })
      .toBe(false);
    await settled(ns, 'sdl', 3);
    const now = await pods(ns);
    expect(now.map(uidOf)).toEqual(expect.arrayContaining(before.slice(1).map(uidOf)));
    expect(now.some((p) => p.metadata!.labels![SPECIFIED_DELETE] !== undefined)).toBe(false);
    await expect
      .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message), { timeout: 10_000 })
      .toEqual([`succeed to delete pod ${nameOf(victim)}`]);
    await expect.poll(async () => (await events(ns, 'SuccessfulCreate')).length, { timeout: 10_000 }).toBe(4);
  });

  it('scale-in order: the lowest controller.kubernetes.io/pod-deletion-cost goes first', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'cost', (cs) => (cs.spec.replicas = 4));
    await settled(ns, 'cost', 4);
    const list = await pods(ns);
    // a, b, c, d: costs -10, none (0), 5, 100
    const [a, b, c, d] = list as [Pod, Pod, Pod, Pod];
    await h.patchPod(ns, nameOf(a), { metadata: { annotations: { [DELETION_COST]: '-10' } } });
    await h.patchPod(ns, nameOf(c), { metadata: { annotations: { [DELETION_COST]: '5' } } });
    await h.patchPod(ns, nameOf(d), { metadata: { annotations: { [DELETION_COST]: '100' } } });

    await patch(ns, 'cost', { spec: { replicas: 2 } });
    await settled(ns, 'cost', 2);
    expect((await pods(ns)).map(uidOf).sort()).toEqual([uidOf(c), uidOf(d)].sort());
    await patch(ns, 'cost', { spec: { replicas: 1 } });
    await settled(ns, 'cost', 1);
    expect((await pods(ns)).map(uidOf)).toEqual([uidOf(d)]);
    await expect
      .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message).sort(), {
        timeout: 10_000,
      })
      .toEqual([a, b, c].map((p) => `succeed to delete pod ${nameOf(p)}`).sort());
  });

  it('scale-in order: a not-ready pod goes before ready ones, whatever its deletion cost', async () => {
    const ns = await namespace();
    const gate = 'regatta.test/serving';
    await h.createDemo(ns, 'unready', (cs) => {
      const template = cs.spec['template'] as { spec: Record<string, unknown> };
      // a readiness gate the test controls: a pod is Ready only once the test sets this condition True
      template.spec['readinessGates'] = [{ conditionType: gate }];
    });
    await expect
      .poll(
        async () =>
          (await pods(ns)).filter((p) => specOf(p).nodeName && p.status?.phase === 'Running').length,
        {
          timeout: 30_000,
        },
      )
      .toBe(3);
    const list = await pods(ns);
    const [notReady, ...ready] = list as [Pod, Pod, Pod];
    for (const p of ready) {
      await h.client.patchStatus(
        { ...POD, namespace: ns, name: nameOf(p) },
        {
          status: {
            conditions: [{ type: gate, status: 'True', lastTransitionTime: new Date().toISOString() }],
          },
        },
        { type: 'strategic' },
      );
    }
    // the not-ready pod is also the most expensive to delete
    await h.patchPod(ns, nameOf(notReady), { metadata: { annotations: { [DELETION_COST]: '1000' } } });
    await expect
      .poll(async () => (await cloneSet(ns, 'unready')).status?.readyReplicas, { timeout: 30_000 })
      .toBe(2);
    expect(isReady((await pods(ns)).find((p) => uidOf(p) === uidOf(notReady))!)).toBe(false);

    await patch(ns, 'unready', { spec: { replicas: 2 } });
    await expect
      .poll(async () => (await pods(ns)).map(uidOf).sort(), { timeout: 30_000 })
      .toEqual(ready.map(uidOf).sort());
    await expect
      .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message), { timeout: 10_000 })
      .toEqual([`succeed to delete pod ${nameOf(notReady)}`]);
  });

  describe('excludePreparingDelete (e2e "specified delete with lifecycle hook")', () => {
    /** cs-demo with a preDelete label hook that every pod carries from its template. */
    const withHook = (exclude: boolean) => (cs: CloneSet) => {
      if (exclude) cs.metadata!.labels = { [EXCLUDE_PREPARING_DELETE]: 'true' };
      cs.spec['lifecycle'] = { preDelete: { labelsHandler: { [HOOK]: 'true' } } };
      const template = cs.spec['template'] as { metadata: { labels: Record<string, string> } };
      template.metadata.labels[HOOK] = 'true';
    };
    const releaseHook = (ns: string, pod: Pod) =>
      h.patchPod(ns, nameOf(pod), { metadata: { labels: { [HOOK]: null } } });
    const stateOf = async (ns: string, pod: Pod) =>
      (await pods(ns)).find((p) => uidOf(p) === uidOf(pod))?.metadata!.labels![STATE];

    it('with the label: a specified-delete pod held in PreparingDelete does not count, so a replacement is created at once', async () => {
      const ns = await namespace();
      await h.createDemo(ns, 'excl', withHook(true));
      await settled(ns, 'excl', 3);
      const before = await pods(ns);
      const victim = before[0]!;
      await h.patchPod(ns, nameOf(victim), { metadata: { labels: { [SPECIFIED_DELETE]: 'true' } } });
      await expect.poll(() => stateOf(ns, victim), { timeout: 30_000 }).toBe('PreparingDelete');
      // the held pod stays, and a fourth pod comes up beside it
      await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(4);
      await expect
        .poll(
          async () => {
            const s = (await cloneSet(ns, 'excl')).status!;
            return [s.replicas, s.readyReplicas];
          },
          { timeout: 30_000 },
        )
        .toEqual([4, 4]);
      expect((await pods(ns)).map(uidOf)).toEqual(expect.arrayContaining(before.map(uidOf)));
      expect((await events(ns, 'SuccessfulDelete')).length).toBe(0);

      // the user's hook finishes: the pod is deleted, nothing else is created
      await releaseHook(ns, victim);
      await settled(ns, 'excl', 3);
      expect((await pods(ns)).map(uidOf)).not.toContain(uidOf(victim));
      expect((await events(ns, 'SuccessfulCreate')).length).toBe(4);
      await expect
        .poll(async () => (await events(ns, 'SuccessfulDelete')).map((e) => e.message), { timeout: 10_000 })
        .toEqual([`succeed to delete pod ${nameOf(victim)}`]);
    });

    it('without the label: the held pod still counts, so its replacement waits until the hook lets it go', async () => {
      const ns = await namespace();
      await h.createDemo(ns, 'noexcl', withHook(false));
      await settled(ns, 'noexcl', 3);
      const before = await pods(ns);
      const victim = before[0]!;
      await h.patchPod(ns, nameOf(victim), { metadata: { labels: { [SPECIFIED_DELETE]: 'true' } } });
      await expect.poll(() => stateOf(ns, victim), { timeout: 30_000 }).toBe('PreparingDelete');
      await holds(
        4_000,
        async () => ({ pods: await pods(ns), status: (await cloneSet(ns, 'noexcl')).status! }),
        (v) => {
          expect(v.pods.map(uidOf).sort()).toEqual(before.map(uidOf).sort());
          expect(v.status.replicas).toBe(3);
        },
      );
      expect((await events(ns, 'SuccessfulCreate')).length).toBe(3);

      await releaseHook(ns, victim);
      await expect
        .poll(async () => (await pods(ns)).some((p) => uidOf(p) === uidOf(victim)), { timeout: 30_000 })
        .toBe(false);
      await settled(ns, 'noexcl', 3);
      const now = await pods(ns);
      expect(now.map(uidOf)).toEqual(expect.arrayContaining(before.slice(1).map(uidOf)));
      expect((await events(ns, 'SuccessfulCreate')).length).toBe(4);
    });

    it('with the label, scale-in by podsToDelete then back up (upstream e2e): the held pod is not counted, status.replicas shows 4', async () => {
      const ns = await namespace();
      await h.createDemo(ns, 'excl-scale', withHook(true));
      await settled(ns, 'excl-scale', 3);
      const before = await pods(ns);
      const victim = before[1]!;
      await patch(ns, 'excl-scale', {
        spec: { replicas: 2, scaleStrategy: { podsToDelete: [nameOf(victim)] } },
      });
      await expect.poll(() => stateOf(ns, victim), { timeout: 30_000 }).toBe('PreparingDelete');
      // scaling in does not create anything: without the held pod there are exactly 2
      await holds(
        3_000,
        () => pods(ns),
        (now) => expect(now.map(uidOf).sort()).toEqual(before.map(uidOf).sort()),
      );
      // back to 3: the held pod is named in podsToDelete, so it is not taken back; a new pod is created beside it
      await patch(ns, 'excl-scale', { spec: { replicas: 3 } });
      await expect
        .poll(async () => (await cloneSet(ns, 'excl-scale')).status?.replicas, { timeout: 30_000 })
        .toBe(4);
      expect(await stateOf(ns, victim)).toBe('PreparingDelete');
      await releaseHook(ns, victim);
      await settled(ns, 'excl-scale', 3);
      expect((await pods(ns)).map(uidOf)).not.toContain(uidOf(victim));
      expect((await events(ns, 'SuccessfulCreate')).length).toBe(4);
    });

    it('scale-in then back up before the hook is done: the held pod is taken back, nothing is created', async () => {
      const ns = await namespace();
      await h.createDemo(ns, 'regret', withHook(false));
      await settled(ns, 'regret', 3);
      const before = await pods(ns);
      await patch(ns, 'regret', { spec: { replicas: 2 } });
      let victim: Pod | undefined;
      await expect
        .poll(
          async () => {
            victim = (await pods(ns)).find((p) => p.metadata!.labels![STATE] === 'PreparingDelete');
            return victim !== undefined;
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      await patch(ns, 'regret', { spec: { replicas: 3 } });
      await expect.poll(() => stateOf(ns, victim!), { timeout: 30_000 }).toBe('Normal');
      await settled(ns, 'regret', 3);
      expect((await pods(ns)).map(uidOf).sort()).toEqual(before.map(uidOf).sort());
      expect((await events(ns, 'SuccessfulCreate')).length).toBe(3);
      expect((await events(ns, 'SuccessfulDelete')).length).toBe(0);
    });
  });

  it('volumeClaimTemplates change with the default gates (S1 §2.1.1): alone it rolls nothing; with an image change the pods update in place and keep their claims', async () => {
    const ns = await namespace();
    const vct = (storage: string) => [
      {
        metadata: { name: 'data-vol' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } },
      },
    ];
    await h.createDemo(ns, 'vct', (cs) => {
      cs.spec.replicas = 2;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
      const template = cs.spec['template'] as { spec: { containers: Record<string, unknown>[] } };
      template.spec.containers[0]!['volumeMounts'] = [
        { name: 'data-vol', mountPath: '/usr/share/nginx/html' },
      ];
      cs.spec['volumeClaimTemplates'] = vct('1Gi');
    });
    const first = await settled(ns, 'vct', 2);
    const claims = async () =>
      (
        await h.client.list<KubeObject & { spec: { resources: { requests: { storage: string } } } }>({
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          namespace: ns,
        })
      ).items.filter((c) => !c.metadata?.deletionTimestamp);
    await expect.poll(async () => (await claims()).length, { timeout: 15_000 }).toBe(2);
    const claimUids = (await claims()).map((c) => c.metadata!.uid!).sort();
    const podUids = (await pods(ns)).map(uidOf).sort();

    // only the claim templates change: no new revision, no rollout (the revision holds the pod template only)
    await patch(ns, 'vct', { spec: { volumeClaimTemplates: vct('2Gi') } });
    await h.observed(ns, 'vct');
    await holds(
      3_000,
      async () => ({ cs: await cloneSet(ns, 'vct'), pods: await pods(ns) }),
      (v) => {
        expect(v.cs.status!.updateRevision).toBe(first.status!.updateRevision);
        expect(v.cs.status!.updatedReplicas).toBe(2);
        expect(v.pods.map(uidOf).sort()).toEqual(podUids);
      },
    );
    for (const c of await claims()) expect(c.spec.resources.requests.storage).toBe('1Gi');

    // then an image change: with RecreatePodWhenChangeVCTInCloneSetGate off (the default) the pods update in place,
    // so their claims stay as they were (S1: "新 Pod 对应的 volume 大小还是 20G")
    await patch(ns, 'vct', {
      spec: { template: { spec: { containers: withImage(await cloneSet(ns, 'vct'), 'nginx:mainline') } } },
    });
    const after = await settled(ns, 'vct', 2);
    expect(after.status!.updateRevision).not.toBe(first.status!.updateRevision);
    const now = await pods(ns);
    expect(now.map(uidOf).sort()).toEqual(podUids);
    for (const p of now) {
      expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
      expect(p.status!.containerStatuses![0]!.restartCount).toBe(1);
    }
    expect((await claims()).map((c) => c.metadata!.uid!).sort()).toEqual(claimUids);
    for (const c of await claims()) expect(c.spec.resources.requests.storage).toBe('1Gi');
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(2);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(2);
  });
});
