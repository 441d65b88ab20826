// CloneSet scenarios on the shared local cluster: what a user sees (pods, UIDs, restarts, status, events) with the
// watcher and the cloneset program running as they run in the sandbox. Creation, in-place and recreate updates,
// partition, admission, claims; the rest of the rollout scenarios are in cloneset-rollout.
import { describe, expect, it } from 'vitest';
import {
  CS,
  type CloneSet,
  isReady,
  seed,
  specOf,
  useCloneSetScenarios,
} from './testing/scenario-harness.js';
import { BAD_SHAPES, LONG_NAME, demo } from './testing/bad-shapes.js';
import { STATE, conditionOf, recordPods } from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, setImage, settled } = h;

describe('CloneSet', () => {
  it('cs-demo (S1 §2): 3 pods named <set>-<id> with revision labels, status, revisions and events; scale down', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    await h.client.create({ ...demo, metadata: { ...demo.metadata, namespace: ns } });
    const cs = await settled(ns, 'cs-demo', 3);
    const status = cs.status!;
    expect(status).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      updatedReplicas: 3,
      updatedReadyReplicas: 3,
      expectedUpdatedReplicas: 3,
      collisionCount: 0,
      labelSelector: 'app=cs',
    });
    const rev = status.updateRevision!;
    expect(rev).toMatch(/^cs-demo-[a-z0-9]+$/);
    const revision = await h.client.get({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      namespace: ns,
      name: rev,
    });
    expect(revision.metadata?.ownerReferences?.[0]).toMatchObject({
      kind: 'CloneSet',
      name: 'cs-demo',
      controller: true,
    });

    const list = await pods(ns);
    for (const p of list) {
      const idLabel = p.metadata!.labels!['apps.kruise.io/cloneset-instance-id']!;
      expect(p.metadata!.name).toBe(`cs-demo-${idLabel}`);
      expect(idLabel).toMatch(/^[a-z0-9]{5}$/);
      expect(p.metadata!.labels).toMatchObject({
        app: 'cs',
        'controller-revision-hash': rev,
        'pod-template-hash': rev.slice(rev.lastIndexOf('-') + 1),
        'lifecycle.apps.kruise.io/state': 'Normal',
      });
      expect(p.metadata!.ownerReferences).toEqual([
        expect.objectContaining({
          apiVersion: 'apps.kruise.io/v1alpha1',
          kind: 'CloneSet',
          name: 'cs-demo',
          controller: true,
        }),
      ]);
      expect(specOf(p).containers[0]!.image).toBe('nginx:alpine');
      expect(isReady(p)).toBe(true);
    }
    await expect
      .poll(async () => (await events(ns, 'SuccessfulCreate')).map((e) => e.message).sort(), {
        timeout: 10_000,
      })
      .toEqual(list.map((p) => `succeed to create pod ${p.metadata!.name}`).sort());

    // scale down to 1: two pods go, nothing is created
    await h.client.patch(
      { ...CS, namespace: ns, name: 'cs-demo' },
      { spec: { replicas: 1 } },
      { type: 'merge' },
    );
    await settled(ns, 'cs-demo', 1);
    const left = await pods(ns);
    expect(list.map((p) => p.metadata!.uid)).toContain(left[0]!.metadata!.uid);
    await expect.poll(async () => (await events(ns, 'SuccessfulDelete')).length, { timeout: 10_000 }).toBe(2);
    const deleted = (await events(ns, 'SuccessfulDelete')).map((e) => e.message).sort();
    expect(deleted).toEqual(
      list
        .filter((p) => p.metadata!.uid !== left[0]!.metadata!.uid)
        .map((p) => `succeed to delete pod ${p.metadata!.name}`)
        .sort(),
    );
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(3);
  });

  it('InPlaceIfPossible (S1 §2.2.2): an image change keeps every pod (same UID), restarts only the container once', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'inplace', namespace: ns };
    demo.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
    await h.client.create(demo);
    const before = await settled(ns, 'inplace', 3);
    const oldPods = await pods(ns);
    const uids = oldPods.map((p) => p.metadata!.uid).sort();
    const rec = await recordPods(h.client, ns);

    await h.client.patch(
      { ...CS, namespace: ns, name: 'inplace' },
      {
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'nginx',
                  image: 'nginx:mainline',
                  imagePullPolicy: 'IfNotPresent',
                  ports: [{ containerPort: 80 }],
                },
              ],
            },
          },
        },
      },
      { type: 'merge' },
    );
    const after = await settled(ns, 'inplace', 3);
    expect(after.status!.updateRevision).not.toBe(before.status!.updateRevision);
    expect(after.status!.currentRevision).toBe(after.status!.updateRevision);
    const now = await pods(ns);
    expect(now.map((p) => p.metadata!.uid).sort()).toEqual(uids);
    for (const p of now) {
      expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
      expect(p.metadata!.labels!['controller-revision-hash']).toBe(after.status!.updateRevision);
      const cstatus = p.status!.containerStatuses![0]!;
      expect(cstatus.restartCount).toBe(1);
      expect(cstatus.image).toBe('nginx:mainline');
      expect(JSON.parse(p.metadata!.annotations!['apps.kruise.io/inplace-update-state']!)).toMatchObject({
        revision: after.status!.updateRevision,
      });
      expect(p.status!.conditions).toContainEqual(
        expect.objectContaining({ type: 'InPlaceUpdateReady', status: 'True' }),
      );
    }
    await expect
      .poll(async () => (await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message).sort(), {
        timeout: 10_000,
      })
      .toEqual(
        now
          .map(
            (p) =>
              `successfully update pod ${p.metadata!.name} in-place(revision ${after.status!.updateRevision})`,
          )
          .sort(),
      );
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(3);
    // the writes each pod went through, as (lifecycle state, InPlaceUpdateReady) in the versions a watch delivers:
    // not ready, then the update (Updating), then ready again and Normal in one write — never a version ready but
    // still Updating (docs/adr/0049-inplace-ready-and-lifecycle-in-one-write.md)
    for (const uid of uids) {
      const seen = rec
        .of(uid!)
        .map((v) => `${v.pod.metadata?.labels?.[STATE]}/${conditionOf(v.pod, 'InPlaceUpdateReady')?.status}`)
        .filter((x, i, all) => i === 0 || x !== all[i - 1]);
      expect(seen.slice(seen.indexOf('Normal/False'))).toEqual([
        'Normal/False',
        'Updating/False',
        'Normal/True',
      ]);
    }
  });

  it('ReCreate (the default): an image change replaces every pod with a new one at the new revision', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'recreate', namespace: ns };
    await h.client.create(demo);
    await settled(ns, 'recreate', 3);
    const uids = (await pods(ns)).map((p) => p.metadata!.uid);
    await h.client.patch(
      { ...CS, namespace: ns, name: 'recreate' },
      { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:mainline' }] } } } },
      { type: 'merge' },
    );
    const after = await settled(ns, 'recreate', 3);
    const now = await pods(ns);
    for (const p of now) {
      expect(uids).not.toContain(p.metadata!.uid);
      expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
      expect(p.metadata!.labels!['controller-revision-hash']).toBe(after.status!.updateRevision);
    }
    expect((await events(ns, 'SuccessfulUpdatePodReCreate')).length).toBe(3);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(6);
  });

  it('partition (S1 §2.2.2.5): replicas 5, partition 3 updates exactly 2 pods; partition 0 finishes', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'sample', namespace: ns };
    demo.spec.replicas = 5;
    demo.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 3, maxUnavailable: '50%' };
    await h.client.create(demo);
    const first = await settled(ns, 'sample', 5);
    await setImage(ns, 'sample', 'nginx:mainline');
    await expect
      .poll(
        async () => {
          const s = (await cloneSet(ns, 'sample')).status!;
          return [s.updatedReplicas, s.updatedReadyReplicas, s.readyReplicas, s.expectedUpdatedReplicas];
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual([2, 2, 5, 2]);
    await new Promise((r) => setTimeout(r, 3_000));
    const held = (await cloneSet(ns, 'sample')).status!;
    expect(held.updatedReplicas).toBe(2);
    expect(held.currentRevision).toBe(first.status!.updateRevision);
    expect((await pods(ns)).filter((p) => specOf(p).containers[0]!.image === 'nginx:mainline')).toHaveLength(
      2,
    );

    await h.client.patch(
      { ...CS, namespace: ns, name: 'sample' },
      { spec: { updateStrategy: { partition: 0 } } },
      { type: 'merge' },
    );
    const done = await settled(ns, 'sample', 5);
    expect(done.status!.currentRevision).toBe(done.status!.updateRevision);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(5);
  });

  it('admission: defaults are filled in, and a bad partition is rejected naming the field', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'defaults', namespace: ns };
    const created = await h.client.create<CloneSet>(demo);
    expect(created.spec).toMatchObject({
      replicas: 3,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
    });
    const bad = seed('s1-2-cs-demo.yaml');
    bad.metadata = { name: 'bad', namespace: ns };
    bad.spec.updateStrategy = { partition: '5' };
    const err = (await h.client.create(bad).catch((e: unknown) => e)) as {
      status?: number;
      message?: string;
    };
    expect(err.status).toBe(422);
    expect(err.message).toContain('spec.updateStrategy.partition');
    const neg = seed('s1-2-cs-demo.yaml');
    neg.metadata = { name: 'neg', namespace: ns };
    neg.spec.updateStrategy = { partition: -1 };
    const err2 = (await h.client.create(neg).catch((e: unknown) => e)) as { message?: string };
    expect(err2.message).toContain('spec.updateStrategy.partition');
    await expect(
      h.client.patch(
        { ...CS, namespace: ns, name: 'defaults' },
        { spec: { updateStrategy: { partition: '5' } } },
        { type: 'merge' },
      ),
    ).rejects.toThrow(/spec\.updateStrategy\.partition/);
  });

  it('volumeClaimTemplates (S1 §2.1.1): a PVC per pod, reused by the replacement of a deleted pod; disablePVCReuse', async () => {
    const ns = await namespace();
    const sample = seed('s1-2.1.1-sample-data.yaml');
    sample.metadata = { ...sample.metadata, namespace: ns };
    await h.client.create(sample);
    await settled(ns, 'sample-data', 5);
    const claims = async () =>
      (await h.client.list({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: ns })).items.filter(
        (c) => !c.metadata?.deletionTimestamp,
      );
    const list = await pods(ns);
    const ids = list.map((p) => p.metadata!.labels!['apps.kruise.io/cloneset-instance-id']!).sort();
    await expect
      .poll(async () => (await claims()).map((c) => c.metadata!.name).sort(), { timeout: 10_000 })
      .toEqual(ids.map((i) => `data-vol-sample-data-${i}`));
    for (const c of await claims()) {
      expect(c.metadata!.labels).toMatchObject({ app: 'sample' });
      expect(c.metadata!.ownerReferences?.[0]).toMatchObject({
        kind: 'CloneSet',
        name: 'sample-data',
        controller: true,
      });
    }
    for (const p of list) {
      const id = p.metadata!.labels!['apps.kruise.io/cloneset-instance-id']!;
      expect((p.spec as { volumes?: unknown[] }).volumes).toContainEqual({
        name: 'data-vol',
        persistentVolumeClaim: { claimName: `data-vol-sample-data-${id}` },
      });
    }

    // someone deletes a pod: its claim stays, and the replacement takes the same id (and so the same name)
    const victim = list[0]!;
    await h.client.delete({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: victim.metadata!.name! });
    await expect
      .poll(
        async () => {
          const now = await pods(ns);
          return now.some(
            (p) => p.metadata!.name === victim.metadata!.name && p.metadata!.uid !== victim.metadata!.uid,
          );
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    await settled(ns, 'sample-data', 5);
    expect((await claims()).map((c) => c.metadata!.name).sort()).toEqual(
      ids.map((i) => `data-vol-sample-data-${i}`),
    );

    // S1 §2.1.1 disablePVCReuse: a deleted pod's claims go with it and the replacement gets a new id
    await h.client.patch(
      { ...CS, namespace: ns, name: 'sample-data' },
      { spec: { scaleStrategy: { disablePVCReuse: true } } },
      { type: 'merge' },
    );
    const second = (await pods(ns))[1]!;
    const secondId = second.metadata!.labels!['apps.kruise.io/cloneset-instance-id']!;
    await h.client.delete({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: second.metadata!.name! });
    await expect
      .poll(
        async () => (await claims()).some((c) => c.metadata!.name === `data-vol-sample-data-${secondId}`),
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe(false);
    await settled(ns, 'sample-data', 5);
    const finalIds = (await pods(ns)).map((p) => p.metadata!.labels!['apps.kruise.io/cloneset-instance-id']!);
    expect(finalIds).not.toContain(secondId);
    await expect.poll(async () => (await claims()).length, { timeout: 20_000 }).toBe(5);
  });
});

describe('CloneSet robustness: wrongly typed templates, long names, reserved labels (issue 8)', () => {
  it('with the webhooks: each is denied with 422 naming the field, not an internal error', async () => {
    const ns = await h.namespace();
    const cases: [string, CloneSet, string][] = Object.entries(BAD_SHAPES).map(([name, [edit, field]]) => [
      name,
      demo(ns, name, edit),
      field,
    ]);
    cases.push(['long-name', demo(ns, LONG_NAME, () => undefined), 'metadata.name']);
    cases.push([
      'claim-null',
      demo(ns, 'claim-null', (cs) => (cs.spec['volumeClaimTemplates'] = [null])),
      'spec.volumeClaimTemplates[0]',
    ]);
    for (const [name, cs, field] of cases) {
      const err = (await h.client.create(cs).catch((e: unknown) => e)) as {
        status?: number;
        message?: string;
      };
      expect({ name, status: err.status }).toEqual({ name, status: 422 });
      expect(err.message, name).toContain(field);
      expect(err.message, name).not.toMatch(/TypeError|Cannot read|internal/i);
    }
    expect(await h.pods(ns)).toEqual([]);
    h.controller.assertRunning();
  });
});
