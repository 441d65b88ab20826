// CloneSet update scenarios on the shared local cluster (S1 §2.2.2): the order in which pods are
// updated (priorityStrategy, scatterStrategy), the in-place grace period, and multi-container in-place batches.
// Orders are read from a watch on the namespace's pods, so no intermediate state is missed by polling.
import { describe, expect, it } from 'vitest';
import { CS, type Pod, isReady, specOf, useCloneSetScenarios } from './testing/scenario-harness.js';
import {
  STATE,
  REVISION,
  INPLACE_STATE,
  INPLACE_GRACE,
  RUNTIME_META,
  uidOf,
  nameOf,
  conditionOf,
  containerStatus,
  recordPods,
  type PodRecorder,
} from './testing/scenario-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, events, patch, setImage, settled } = h;

const specImage = (p: Pod, name: string) => specOf(p).containers.find((c) => c.name === name)?.image;

/** The first time each pod's revision label left `oldRevision`, oldest first: the order pods were updated in. */
function updateOrder(rec: PodRecorder, oldRevision: string): string[] {
  const first = new Map<string, number>();
  for (const s of rec.snapshots) {
    const rev = s.pod.metadata?.labels?.[REVISION];
    if (rev && rev !== oldRevision && !first.has(nameOf(s.pod))) first.set(nameOf(s.pod), s.at);
  }
  return [...first.entries()].sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

/**
 * Three pods created one at a time (scaleStrategy.maxUnavailable 1, minReadySeconds 1: S1 §2.1.3), so their Ready
 * times differ; returned oldest first. The base update order (`ActivePods`: most recently ready first) is therefore
 * newest → oldest, and a priority that asks for oldest → newest is visibly the priority's doing.
 */
async function threeStreamedPods(ns: string, name: string, updateStrategy: Record<string, unknown>) {
  await h.createDemo(ns, name, (cs) => {
    cs.spec.updateStrategy = updateStrategy;
    cs.spec['scaleStrategy'] = { maxUnavailable: 1 };
    cs.spec['minReadySeconds'] = 1;
  });
  const first = await settled(ns, name, 3);
  await patch(ns, name, { spec: { minReadySeconds: 0 } });
  const list = (await pods(ns)).sort(
    (a, b) => Date.parse(a.metadata!.creationTimestamp!) - Date.parse(b.metadata!.creationTimestamp!),
  );
  const created = list.map((p) => Date.parse(p.metadata!.creationTimestamp!));
  expect(created[1]! - created[0]!).toBeGreaterThanOrEqual(1_000);
  expect(created[2]! - created[1]!).toBeGreaterThanOrEqual(1_000);
  return { first, list: list as [Pod, Pod, Pod] };
}

describe('CloneSet update', () => {
  it('priorityStrategy.weightPriority: with maxUnavailable 1, pods update in order of their summed weights', async () => {
    const ns = await namespace();
    const { first, list } = await threeStreamedPods(ns, 'weight', {
      type: 'InPlaceIfPossible',
      maxUnavailable: 1,
      priorityStrategy: {
        weightPriority: [
          { weight: 50, matchSelector: { matchLabels: { tier: 'high' } } },
          { weight: 20, matchSelector: { matchLabels: { tier: 'mid' } } },
        ],
      },
    });
    const [oldest, middle, newest] = list;
    await h.patchPod(ns, nameOf(oldest), { metadata: { labels: { tier: 'high' } } });
    await h.patchPod(ns, nameOf(middle), { metadata: { labels: { tier: 'mid' } } });
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'weight', 'nginx:mainline');
    const after = await settled(ns, 'weight', 3);
    expect(updateOrder(rec, first.status!.updateRevision!)).toEqual([
      nameOf(oldest),
      nameOf(middle),
      nameOf(newest),
    ]);
    const now = await pods(ns);
    expect(now.map(uidOf).sort()).toEqual(list.map(uidOf).sort());
    for (const p of now) expect(p.metadata!.labels![REVISION]).toBe(after.status!.updateRevision);
  });

  it('priorityStrategy.orderPriority: the first ordered key first, then the higher number at the end of its value', async () => {
    const ns = await namespace();
    const { first, list } = await threeStreamedPods(ns, 'order', {
      type: 'InPlaceIfPossible',
      maxUnavailable: 1,
      priorityStrategy: { orderPriority: [{ orderedKey: 'wave-a' }, { orderedKey: 'wave-b' }] },
    });
    const [oldest, middle, newest] = list;
    // oldest: first key, 9; middle: first key, 2; newest: only the second key (a higher number does not matter)
    await h.patchPod(ns, nameOf(oldest), { metadata: { labels: { 'wave-a': 'v-9' } } });
    await h.patchPod(ns, nameOf(middle), { metadata: { labels: { 'wave-a': 'v-2' } } });
    await h.patchPod(ns, nameOf(newest), { metadata: { labels: { 'wave-b': 'v-100' } } });
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'order', 'nginx:mainline');
    await settled(ns, 'order', 3);
    expect(updateOrder(rec, first.status!.updateRevision!)).toEqual([
      nameOf(oldest),
      nameOf(middle),
      nameOf(newest),
    ]);
  });

  it('scatterStrategy: three labelled pods of six are spread one per update batch of two', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'scatter', (cs) => {
      cs.spec.updateStrategy = {
        type: 'InPlaceIfPossible',
        partition: 4,
        maxUnavailable: 2,
        scatterStrategy: [{ key: 'group', value: 'a' }],
      };
    });
    const first = await settled(ns, 'scatter', 3);
    // the three labelled pods are the newest ones: the base order (most recently ready first) would take two of
    // them in the first batch, so one per batch is the scatter strategy's doing
    const older = (await pods(ns)).map(uidOf);
    await new Promise((r) => setTimeout(r, 1_100));
    await patch(ns, 'scatter', { spec: { replicas: 6 } });
    await settled(ns, 'scatter', 6);
    const labelled = (await pods(ns)).filter((p) => !older.includes(uidOf(p)));
    expect(labelled).toHaveLength(3);
    for (const p of labelled) await h.patchPod(ns, nameOf(p), { metadata: { labels: { group: 'a' } } });
    const isLabelled = (p: Pod) => labelled.some((l) => uidOf(l) === uidOf(p));

    const oldRev = first.status!.updateRevision!;
    const updated = async () => (await pods(ns)).filter((p) => p.metadata!.labels![REVISION] !== oldRev);
    /** Waits until `n` pods are updated and every pod is Ready and Normal (the batch is over). */
    const batchDone = async (n: number) => {
      await expect
        .poll(
          async () => {
            const now = await pods(ns);
            const done = now.filter((p) => p.metadata!.labels![REVISION] !== oldRev);
            return (
              done.length === n &&
              now.length === 6 &&
              now.every((p) => isReady(p) && p.metadata!.labels![STATE] === 'Normal')
            );
          },
          { timeout: 30_000, interval: 300 },
        )
        .toBe(true);
      return updated();
    };

    await setImage(ns, 'scatter', 'nginx:mainline');
    const batch1 = await batchDone(2);
    expect(batch1.filter(isLabelled)).toHaveLength(1);
    await patch(ns, 'scatter', { spec: { updateStrategy: { partition: 2 } } });
    const upTo2 = await batchDone(4);
    const batch2 = upTo2.filter((p) => !batch1.some((q) => uidOf(q) === uidOf(p)));
    expect(batch2).toHaveLength(2);
    expect(batch2.filter(isLabelled)).toHaveLength(1);
    await patch(ns, 'scatter', { spec: { updateStrategy: { partition: 0 } } });
    await settled(ns, 'scatter', 6);
    const batch3 = (await updated()).filter((p) => !upTo2.some((q) => uidOf(q) === uidOf(p)));
    expect(batch3.filter(isLabelled)).toHaveLength(1);
  });

  it('inPlaceUpdateStrategy.gracePeriodSeconds 3 (S1 §2.2.2.4): not ready first, the image changes only ~3 s later', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'grace', (cs) => {
      cs.spec.replicas = 1;
      cs.spec.updateStrategy = {
        type: 'InPlaceIfPossible',
        inPlaceUpdateStrategy: { gracePeriodSeconds: 3 },
      };
    });
    await settled(ns, 'grace', 1);
    const pod = (await pods(ns))[0]!;
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'grace', 'nginx:mainline');
    const after = await settled(ns, 'grace', 1, 30_000);
    const seen = rec.of(uidOf(pod));

    const notReady = seen.find((s) => conditionOf(s.pod, 'InPlaceUpdateReady')?.status === 'False');
    expect(notReady, 'the pod was never seen with InPlaceUpdateReady False').toBeDefined();
    expect(conditionOf(notReady!.pod, 'InPlaceUpdateReady')).toMatchObject({ reason: 'StartInPlaceUpdate' });
    expect(specOf(notReady!.pod).containers[0]!.image).toBe('nginx:alpine');
    // while the grace annotation is there, the container keeps its old image and the pod is not ready
    const waiting = seen.filter((s) => s.pod.metadata?.annotations?.[INPLACE_GRACE] !== undefined);
    expect(waiting.length).toBeGreaterThan(0);
    for (const s of waiting) expect(specOf(s.pod).containers[0]!.image).toBe('nginx:alpine');
    expect(waiting.some((s) => conditionOf(s.pod, 'Ready')?.status === 'False')).toBe(true);
    expect(JSON.parse(waiting[0]!.pod.metadata!.annotations![INPLACE_GRACE]!)).toMatchObject({
      revision: after.status!.updateRevision,
      containerImages: { nginx: 'nginx:mainline' },
      graceSeconds: 3,
    });
    expect(waiting[0]!.pod.metadata!.labels![REVISION]).toBe(after.status!.updateRevision);
    const changed = seen.find((s) => specOf(s.pod).containers[0]!.image === 'nginx:mainline');
    expect(changed).toBeDefined();
    expect(changed!.pod.metadata?.annotations?.[INPLACE_GRACE]).toBeUndefined();
    // the state's updateTimestamp has whole seconds, so the wait is between 2 and 3 s after the not-ready write
    expect(changed!.at - notReady!.at).toBeGreaterThanOrEqual(1_900);
    expect(changed!.at - notReady!.at).toBeLessThan(10_000);

    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).toBe(uidOf(pod));
    expect(now.metadata!.annotations![INPLACE_GRACE]).toBeUndefined();
    expect(now.status!.containerStatuses![0]).toMatchObject({ image: 'nginx:mainline', restartCount: 1 });
    expect(conditionOf(now, 'InPlaceUpdateReady')?.status).toBe('True');
    await expect
      .poll(async () => (await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message), {
        timeout: 10_000,
      })
      .toEqual([`successfully update pod ${nameOf(pod)} in-place(revision ${after.status!.updateRevision})`]);
  });

  it('multi-container in-place batches (S1 §2.2.2.4): the KRUISE_CONTAINER_PRIORITY 10 container restarts first, the other once it is ready again', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'batches', (cs) => {
      cs.spec.replicas = 1;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
      const template = cs.spec['template'] as { spec: { containers: Record<string, unknown>[] } };
      // the prioritised container is the second one, so the order is the priority's doing, not the list's
      template.spec.containers = [
        { name: 'main', image: 'nginx:alpine', imagePullPolicy: 'IfNotPresent' },
        {
          name: 'sidecar',
          image: 'redis:7.0-alpine',
          imagePullPolicy: 'IfNotPresent',
          env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '10' }],
        },
      ];
    });
    await settled(ns, 'batches', 1);
    const pod = (await pods(ns))[0]!;
    const rec = await recordPods(h.client, ns);
    await h.client.patch(
      { ...CS, namespace: ns, name: 'batches' },
      [
        { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:mainline' },
        { op: 'replace', path: '/spec/template/spec/containers/1/image', value: 'redis:7.2-alpine' },
      ],
      { type: 'json' },
    );
    const after = await settled(ns, 'batches', 1, 40_000);
    const seen = rec.of(uidOf(pod));

    const sidecarSpec = seen.find((s) => specImage(s.pod, 'sidecar') === 'redis:7.2-alpine');
    const mainSpec = seen.find((s) => specImage(s.pod, 'main') === 'nginx:mainline');
    expect(sidecarSpec).toBeDefined();
    expect(mainSpec).toBeDefined();
    // first batch: only the sidecar; main waits in nextContainerImages until the sidecar is ready
    expect(specImage(sidecarSpec!.pod, 'main')).toBe('nginx:alpine');
    expect(JSON.parse(sidecarSpec!.pod.metadata!.annotations![INPLACE_STATE]!)).toMatchObject({
      revision: after.status!.updateRevision,
      nextContainerImages: { main: 'nginx:mainline' },
      preCheckBeforeNext: { containersRequiredReady: ['sidecar'] },
      containerBatchesRecord: [{ containers: ['sidecar'] }],
    });
    const sidecarBackReady = seen.find((s) => {
      const c = containerStatus(s.pod, 'sidecar');
      return c?.restartCount === 1 && c.ready && c.image === 'redis:7.2-alpine';
    });
    expect(sidecarBackReady).toBeDefined();
    expect(mainSpec!.at).toBeGreaterThanOrEqual(sidecarBackReady!.at);
    // main's container did not restart before the sidecar had restarted and was ready again
    const mainRestarted = seen.find((s) => containerStatus(s.pod, 'main')?.restartCount === 1);
    expect(mainRestarted).toBeDefined();
    expect(mainRestarted!.at).toBeGreaterThanOrEqual(sidecarBackReady!.at);

    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).toBe(uidOf(pod));
    expect(containerStatus(now, 'main')).toMatchObject({
      image: 'nginx:mainline',
      restartCount: 1,
      ready: true,
    });
    expect(containerStatus(now, 'sidecar')).toMatchObject({
      image: 'redis:7.2-alpine',
      restartCount: 1,
      ready: true,
    });
    const state = JSON.parse(now.metadata!.annotations![INPLACE_STATE]!) as {
      containerBatchesRecord: { containers: string[] }[];
      nextContainerImages?: unknown;
    };
    expect(state.containerBatchesRecord.map((b) => b.containers)).toEqual([['sidecar'], ['main']]);
    expect(state.nextContainerImages).toBeUndefined();
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(1);
  });

  it('env from metadata (S1 §2.2.2.2): changing only the label a container reads through env restarts only that container, same pod', async () => {
    const ns = await namespace();
    await h.createDemo(ns, 'envmeta', (cs) => {
      cs.spec.replicas = 1;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible' };
      const template = cs.spec['template'] as {
        metadata: { labels: Record<string, string> };
        spec: { containers: Record<string, unknown>[] };
      };
      template.metadata.labels['k'] = 'v1';
      template.spec.containers = [
        {
          name: 'main',
          image: 'nginx:alpine',
          imagePullPolicy: 'IfNotPresent',
          env: [{ name: 'K', valueFrom: { fieldRef: { fieldPath: "metadata.labels['k']" } } }],
        },
        { name: 'other', image: 'redis:7.0-alpine', imagePullPolicy: 'IfNotPresent' },
      ];
    });
    const first = await settled(ns, 'envmeta', 1);
    const pod = (await pods(ns))[0]!;
    type Meta = { containers: { name: string; containerID: string; hashes: Record<string, number> }[] };
    const metaOf = (p: Pod) =>
      JSON.parse(p.metadata?.annotations?.[RUNTIME_META] ?? '{"containers":[]}') as Meta;
    // kruise-daemon (played by the simulated node) reports what each running container was started with
    await expect
      .poll(async () => metaOf((await pods(ns))[0]!).containers.map((c) => c.name), { timeout: 15_000 })
      .toEqual(['main', 'other']);
    const metaBefore = metaOf((await pods(ns))[0]!);

    await patch(ns, 'envmeta', { spec: { template: { metadata: { labels: { k: 'v2' } } } } });
    const after = await settled(ns, 'envmeta', 1, 40_000);
    expect(after.status!.updateRevision).not.toBe(first.status!.updateRevision);
    await expect
      .poll(async () => containerStatus((await pods(ns))[0]!, 'main')?.restartCount, { timeout: 20_000 })
      .toBe(1);
    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).toBe(uidOf(pod));
    expect(now.metadata!.labels!['k']).toBe('v2');
    expect(now.metadata!.labels![REVISION]).toBe(after.status!.updateRevision);
    expect(containerStatus(now, 'main')).toMatchObject({
      image: 'nginx:alpine',
      restartCount: 1,
      ready: true,
    });
    expect(containerStatus(now, 'other')).toMatchObject({
      image: 'redis:7.0-alpine',
      restartCount: 0,
      ready: true,
    });
    expect(JSON.parse(now.metadata!.annotations![INPLACE_STATE]!)).toMatchObject({
      revision: after.status!.updateRevision,
      updateEnvFromMetadata: true,
    });
    expect(conditionOf(now, 'InPlaceUpdateReady')?.status).toBe('True');
    // the restarted container runs with the new value (a new hash); the other one is the same instance as before
    await expect
      .poll(
        async () => {
          const meta = metaOf((await pods(ns))[0]!);
          const byName = (m: Meta, n: string) => m.containers.find((c) => c.name === n);
          return [
            byName(meta, 'main')?.hashes['extractedEnvFromMetadataHash'] !==
              byName(metaBefore, 'main')?.hashes['extractedEnvFromMetadataHash'],
            byName(meta, 'other')?.containerID === byName(metaBefore, 'other')?.containerID,
          ];
        },
        { timeout: 10_000 },
      )
      .toEqual([true, true]);
    await expect
      .poll(async () => (await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message), {
        timeout: 10_000,
      })
      .toEqual([`successfully update pod ${nameOf(pod)} in-place(revision ${after.status!.updateRevision})`]);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(1);
  });
});
