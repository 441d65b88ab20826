// The seed articles' CloneSets (libs/api/src/fixtures, S1) applied as written: what a user observes (pods, UIDs,
// restarts, status, events) on the shared local cluster. Their lifecycle hooks (S1 §2.3) are in
// cloneset-seed-hooks.
import { describe, expect, it } from 'vitest';
import {
  type CloneSet,
  type Pod,
  isReady,
  seed,
  specOf,
  useCloneSetScenarios,
  CS,
  POD,
} from './testing/scenario-harness.js';
import {
  REVISION,
  INPLACE_GRACE,
  RUNTIME_META,
  uidOf,
  nameOf,
  stateOf,
  conditionOf,
  containerStatus,
  holds,
  recordPods,
} from './testing/scenario-helpers.js';
import { templateOf, inPlaceState, article, merged, demoWith } from './testing/e2e-helpers.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, patch, setImage, settled } = h;

describe("the seed articles' CloneSets (S1), applied as written", () => {
  it("S1 §1.3.1 web-server: the article's numbers are admitted; at 1/100 scale partition keeps 10% old and updates one at a time in place", async () => {
    const ns = await namespace();
    const [ws] = article('s1-1.3.1-web-server.yaml');
    // the article elides the pod template (`{...}`): it gets the selector's label and cs-demo's container
    const webServer = merged(ws!, {
      metadata: { namespace: ns },
      spec: {
        template: {
          metadata: { labels: { app: 'web-server' } },
          spec: { containers: templateOf(seed('s1-2-cs-demo.yaml')).spec.containers },
        },
      },
    });
    // 1000 pods do not fit this 5-node test cluster: the manifest itself is admitted (server dry run) as written
    const admitted = await h.client.create<CloneSet>(webServer, { dryRun: true });
    expect(admitted.spec.replicas).toBe(1000);
    expect(admitted.spec.updateStrategy).toMatchObject({
      type: 'InPlaceIfPossible',
      partition: 100,
      maxUnavailable: '10%',
    });
    // ... and runs at 1/100: 10 pods, 1 kept old (100 of 1000), at most 10% (1) unavailable
    const small = merged(webServer, { spec: { replicas: 10, updateStrategy: { partition: 1 } } });
    await h.client.create(small);
    const first = await settled(ns, 'web-server', 10, 60_000);
    const uids = (await pods(ns)).map(uidOf).sort();
    let maxUnready = 0;
    const sample = async () => {
      const now = await pods(ns);
      maxUnready = Math.max(maxUnready, now.filter((p) => !isReady(p)).length);
      return now;
    };
    const sampler = setInterval(() => void sample().catch(() => undefined), 150);
    try {
      await setImage(ns, 'web-server', 'nginx:mainline');
      await expect
        .poll(
          async () => {
            const s = (await cloneSet(ns, 'web-server')).status!;
            return [s.updatedReplicas, s.updatedReadyReplicas, s.readyReplicas, s.expectedUpdatedReplicas];
          },
          { timeout: 60_000, interval: 500 },
        )
        .toEqual([9, 9, 10, 9]);
    } finally {
      clearInterval(sampler);
    }
    const now = await sample();
    expect(now.map(uidOf).sort()).toEqual(uids);
    const old = now.filter((p) => p.metadata!.labels![REVISION] === first.status!.updateRevision);
    expect(old).toHaveLength(1);
    expect(specOf(old[0]!).containers[0]!.image).toBe('nginx:alpine');
    expect(maxUnready).toBeLessThanOrEqual(1);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).length).toBe(9);
  });

  it('S1 §2.1.2 podsToDelete: replicas 4 with sample-9m4hp listed deletes exactly that pod and prunes the list', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.1.2-pods-to-delete.yaml');
    // the article's pod: a pod named sample-9m4hp that the CloneSet `sample` adopts
    await h.client.create({
      ...POD,
      metadata: { name: 'sample-9m4hp', namespace: ns, labels: { app: 'sample' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
    });
    // running before the CloneSet exists, as in the article: by then the controller's cache has seen it (created
    // together, the CloneSet may create its five pods first and then scale the adopted one in)
    await expect
      .poll(async () => (await pods(ns)).filter((p) => nameOf(p) === 'sample-9m4hp' && isReady(p)).length, {
        timeout: 60_000,
      })
      .toBe(1);
    const sample = seed('s1-2-cs-demo.yaml');
    sample.metadata = { name: 'sample', namespace: ns };
    sample.spec.replicas = 5;
    sample.spec['selector'] = { matchLabels: { app: 'sample' } };
    templateOf(sample).metadata.labels = { app: 'sample' };
    // paused: the adopted pod (no revision label) is not replaced by an update, only scaling acts
    sample.spec.updateStrategy = { paused: true };
    await h.client.create(sample);
    await expect
      .poll(
        async () => {
          const list = await pods(ns);
          const adopted = list.find((p) => nameOf(p) === 'sample-9m4hp');
          return [list.length, list.every(isReady), adopted?.metadata?.ownerReferences?.[0]?.name];
        },
        { timeout: 30_000 },
      )
      .toEqual([5, true, 'sample']);
    const before = await pods(ns);

    // the article's CloneSet change, as written
    await h.client.patch({ ...CS, namespace: ns, name: 'sample' }, fragment!, { type: 'merge' });
    await expect
      .poll(async () => (await pods(ns)).map(nameOf).sort(), { timeout: 30_000 })
      .toEqual(
        before
          .map(nameOf)
          .filter((n) => n !== 'sample-9m4hp')
          .sort(),
      );
    await holds(
      2_000,
      () => pods(ns),
      (now) =>
        expect(now.map(uidOf).sort()).toEqual(
          before
            .filter((p) => nameOf(p) !== 'sample-9m4hp')
            .map(uidOf)
            .sort(),
        ),
    );
    await expect
      .poll(
        async () => {
          const cs = await cloneSet(ns, 'sample');
          return [
            cs.spec.replicas,
            (cs.spec['scaleStrategy'] as { podsToDelete?: string[] } | undefined)?.podsToDelete ?? [],
            cs.status?.replicas,
          ];
        },
        { timeout: 15_000 },
      )
      .toEqual([4, [], 4]);
    expect((await events(ns, 'SuccessfulDelete')).map((e) => e.message)).toEqual([
      'succeed to delete pod sample-9m4hp',
    ]);
  });

  it('S1 §2.2.2.2 InPlaceIfPossible with env from an annotation: image, annotation, both → in place; an env value → recreate', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.2-in-place-env.yaml');
    await h.client.create(demoWith(ns, fragment!));
    const first = await settled(ns, 'cs-demo', 1);
    const pod = (await pods(ns))[0]!;
    expect(specOf(pod).containers.map((c) => [c.name, c.image])).toEqual([['app', 'app-image:v1']]);
    const container = () => templateOf(fragment!).spec.containers[0]!;
    const metaHash = (p: Pod) =>
      (
        JSON.parse(p.metadata?.annotations?.[RUNTIME_META] ?? '{"containers":[]}') as {
          containers: { name: string; hashes: { extractedEnvFromMetadataHash?: number } }[];
        }
      ).containers.find((c) => c.name === 'app')?.hashes.extractedEnvFromMetadataHash;
    await expect.poll(async () => metaHash((await pods(ns))[0]!), { timeout: 15_000 }).toBeDefined();

    /** Applies a template change and waits until the one pod is at the new revision, ready and Normal. */
    const step = async (template: Record<string, unknown>) => {
      const before = (await cloneSet(ns, 'cs-demo')).status!.updateRevision;
      await patch(ns, 'cs-demo', { spec: { template } });
      await expect
        .poll(async () => (await cloneSet(ns, 'cs-demo')).status!.updateRevision, { timeout: 10_000 })
        .not.toBe(before);
      const cs = await settled(ns, 'cs-demo', 1, 40_000);
      await expect.poll(async () => (await pods(ns)).map(stateOf), { timeout: 20_000 }).toEqual(['Normal']);
      return { cs, pod: (await pods(ns))[0]! };
    };

    // 1. the image: in place, one restart
    const s1 = await step({ spec: { containers: [{ ...container(), image: 'app-image:v2' }] } });
    expect(uidOf(s1.pod)).toBe(uidOf(pod));
    expect(containerStatus(s1.pod, 'app')).toMatchObject({
      image: 'app-image:v2',
      restartCount: 1,
      ready: true,
    });
    const hash1 = metaHash(s1.pod);

    // 2. the annotation the env reads: in place, the container restarts with the new value
    const s2 = await step({ metadata: { annotations: { 'app-config': '... a new env value ...' } } });
    expect(uidOf(s2.pod)).toBe(uidOf(pod));
    expect(s2.pod.metadata!.annotations!['app-config']).toBe('... a new env value ...');
    expect(containerStatus(s2.pod, 'app')).toMatchObject({
      image: 'app-image:v2',
      restartCount: 2,
      ready: true,
    });
    expect(inPlaceState(s2.pod)).toMatchObject({
      revision: s2.cs.status!.updateRevision,
      updateEnvFromMetadata: true,
    });
    await expect.poll(async () => metaHash((await pods(ns))[0]!), { timeout: 10_000 }).not.toBe(hash1);
    const hash2 = metaHash((await pods(ns))[0]!);

    // 3. both at once: one in-place update, one restart, both take effect
    const s3 = await step({
      metadata: { annotations: { 'app-config': '... a third env value ...' } },
      spec: { containers: [{ ...container(), image: 'app-image:v3' }] },
    });
    expect(uidOf(s3.pod)).toBe(uidOf(pod));
    expect(containerStatus(s3.pod, 'app')).toMatchObject({
      image: 'app-image:v3',
      restartCount: 3,
      ready: true,
    });
    await expect.poll(async () => metaHash((await pods(ns))[0]!), { timeout: 10_000 }).not.toBe(hash2);
    expect((await events(ns, 'SuccessfulUpdatePodInPlace')).map((e) => e.message).sort()).toEqual(
      [s1, s2, s3]
        .map(
          (s) => `successfully update pod ${nameOf(pod)} in-place(revision ${s.cs.status!.updateRevision})`,
        )
        .sort(),
    );

    // 4. the value of APP_NAME: not in-place-able, the pod is recreated
    const env = container().env!.map((e) => (e.name === 'APP_NAME' ? { ...e, value: 'yyy' } : e));
    const s4 = await step({ spec: { containers: [{ ...container(), image: 'app-image:v3', env }] } });
    expect(uidOf(s4.pod)).not.toBe(uidOf(pod));
    expect(containerStatus(s4.pod, 'app')).toMatchObject({ image: 'app-image:v3', restartCount: 0 });
    expect(specOf(s4.pod).containers[0]!.env).toContainEqual({ name: 'APP_NAME', value: 'yyy' });
    expect((await events(ns, 'SuccessfulUpdatePodReCreate')).map((e) => e.message)).toEqual([
      `successfully patch pod ${nameOf(pod)} specified-delete for update(revision ${s4.cs.status!.updateRevision})`,
    ]);
    expect(first.status!.updateRevision).not.toBe(s4.cs.status!.updateRevision);
  });

  it('S1 §2.2.2.3 image pre-download annotations: kept as written; with the gate off (the default) no ImagePullJob, the rollout completes', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.3-predownload-annotations.yaml');
    const created = await h.client.create<CloneSet>(demoWith(ns, fragment!));
    expect(created.metadata!.annotations).toMatchObject({
      'apps.kruise.io/image-predownload-parallelism': '5',
      'apps.kruise.io/image-predownload-min-updated-ready-pods': '2',
    });
    await settled(ns, 'cs-demo', 3);
    await setImage(ns, 'cs-demo', 'nginx:mainline');
    await settled(ns, 'cs-demo', 3);
    const jobs = await h.client
      .list({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob', namespace: ns })
      .then((l) => l.items)
      .catch(() => []);
    expect(jobs).toEqual([]);
    expect(await events(ns, 'CreatedImagePullJob')).toEqual([]);
    expect((await cloneSet(ns, 'cs-demo')).metadata!.annotations).toMatchObject(
      created.metadata!.annotations!,
    );
  });

  it('S1 §2.2.2.4 container launch priority: sidecar (priority 10, env from app-config) first, then main; the state shows the batches', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.4-container-priority.yaml');
    // as written, the sidecar has no image: admission says so
    const err = (await h.client.create(demoWith(ns, fragment!)).catch((e: unknown) => e)) as {
      status?: number;
      message?: string;
    };
    expect(err.message).toMatch(/spec\.template\.spec\.containers\[0\]\.image: Required value/);
    // given an image, the article's CloneSet
    const cs = demoWith(ns, fragment!, (c) => {
      templateOf(c).spec.containers[0]!.image = 'sidecar-image:v1';
    });
    await h.client.create(cs);
    await settled(ns, 'cs-demo', 1);
    const pod = (await pods(ns))[0]!;
    const oldMainImageId = containerStatus(pod, 'main')!.imageID;
    await expect
      .poll(async () => (await pods(ns))[0]!.metadata?.annotations?.[RUNTIME_META], { timeout: 15_000 })
      .toBeDefined();

    // "update app-config and main's image": the sidecar is recreated first (env from annotation), then main
    const rec = await recordPods(h.client, ns);
    const containers = templateOf(cs).spec.containers.map((c) =>
      c.name === 'main' ? { ...c, image: 'main-image:v2' } : c,
    );
    await patch(ns, 'cs-demo', {
      spec: {
        template: { metadata: { annotations: { 'app-config': '... config v2 ...' } }, spec: { containers } },
      },
    });
    const after = await settled(ns, 'cs-demo', 1, 40_000);
    const rev = after.status!.updateRevision!;
    const seen = rec.of(uidOf(pod));
    const firstBatch = seen.find((s) => inPlaceState(s.pod)?.revision === rev);
    expect(firstBatch, 'the pod was never seen in its first in-place batch').toBeDefined();
    expect(inPlaceState(firstBatch!.pod)).toMatchObject({
      revision: rev,
      nextContainerImages: { main: 'main-image:v2' },
      preCheckBeforeNext: { containersRequiredReady: ['sidecar'] },
      containerBatchesRecord: [{ containers: ['sidecar'] }],
    });
    expect(specOf(firstBatch!.pod).containers.find((c) => c.name === 'main')!.image).toBe('main-image:v1');
    const sidecarBack = seen.find((s) => {
      const c = containerStatus(s.pod, 'sidecar');
      return c?.restartCount === 1 && c.ready;
    });
    const mainChanged = seen.find(
      (s) => specOf(s.pod).containers.find((c) => c.name === 'main')!.image === 'main-image:v2',
    );
    expect(sidecarBack).toBeDefined();
    expect(mainChanged).toBeDefined();
    expect(mainChanged!.at).toBeGreaterThanOrEqual(sidecarBack!.at);

    const now = (await pods(ns))[0]!;
    expect(uidOf(now)).toBe(uidOf(pod));
    expect(containerStatus(now, 'sidecar')).toMatchObject({
      image: 'sidecar-image:v1',
      restartCount: 1,
      ready: true,
    });
    expect(containerStatus(now, 'main')).toMatchObject({
      image: 'main-image:v2',
      restartCount: 1,
      ready: true,
    });
    const state = inPlaceState(now)!;
    expect(state).toMatchObject({
      revision: rev,
      lastContainerStatuses: { main: { imageID: oldMainImageId } },
    });
    expect(state.containerBatchesRecord!.map((b) => b.containers)).toEqual([['sidecar'], ['main']]);
    expect(state.nextContainerImages).toBeUndefined();
    expect(state.preCheckBeforeNext).toBeUndefined();
  });

  it('S1 §2.2.2.4 gracePeriodSeconds 10: each pod is not ready first, and its image changes only ~10 s later', async () => {
    const ns = await namespace();
    const [fragment] = article('s1-2.2.2.4-grace-period.yaml');
    await h.client.create(demoWith(ns, fragment!, (cs) => (cs.spec.replicas = 2)));
    await settled(ns, 'cs-demo', 2);
    const list = await pods(ns);
    const rec = await recordPods(h.client, ns);
    await setImage(ns, 'cs-demo', 'nginx:mainline');
    const after = await settled(ns, 'cs-demo', 2, 70_000);
    for (const p of list) {
      const seen = rec.of(uidOf(p));
      const notReady = seen.find((s) => conditionOf(s.pod, 'InPlaceUpdateReady')?.status === 'False');
      const waiting = seen.filter((s) => s.pod.metadata?.annotations?.[INPLACE_GRACE] !== undefined);
      const changed = seen.find((s) => specOf(s.pod).containers[0]!.image === 'nginx:mainline');
      expect(notReady, `${nameOf(p)} was never seen with InPlaceUpdateReady False`).toBeDefined();
      expect(waiting.length, `${nameOf(p)} was never seen waiting out its grace period`).toBeGreaterThan(0);
      expect(changed).toBeDefined();
      expect(specOf(notReady!.pod).containers[0]!.image).toBe('nginx:alpine');
      // while it waits: the revision label is new, the image is old, the pod is not ready
      for (const s of waiting) {
        expect(specOf(s.pod).containers[0]!.image).toBe('nginx:alpine');
        expect(s.pod.metadata!.labels![REVISION]).toBe(after.status!.updateRevision);
        expect(conditionOf(s.pod, 'Ready')?.status).toBe('False');
      }
      expect(JSON.parse(waiting[0]!.pod.metadata!.annotations![INPLACE_GRACE]!)).toMatchObject({
        revision: after.status!.updateRevision,
        containerImages: { nginx: 'nginx:mainline' },
        graceSeconds: 10,
      });
      expect(changed!.pod.metadata?.annotations?.[INPLACE_GRACE]).toBeUndefined();
      // the grace period counts from the state's updateTimestamp (whole seconds, written with the grace annotation):
      // the image changes 10 s after it at the earliest (measured against the timestamp, not against when the watch
      // delivered the annotation: under load that event can arrive late, run 2026-12-05 saw 8.8 s between the two)
      const written = Date.parse(inPlaceState(waiting[0]!.pod)!.updateTimestamp);
      expect(changed!.at - written).toBeGreaterThanOrEqual(9_900);
      expect(changed!.at - notReady!.at).toBeLessThan(15_000);
    }
    const now = await pods(ns);
    expect(now.map(uidOf).sort()).toEqual(list.map(uidOf).sort());
    for (const p of now)
      expect(containerStatus(p, 'nginx')).toMatchObject({ image: 'nginx:mainline', restartCount: 1 });
  });

  it('S1 §2.2.2.5 partition 3 on the 5-pod `sample`: generation 2, 2 pods recreated at the new revision, the status of the article', async () => {
    const ns = await namespace();
    // the article's `sample` CloneSet (S1 §2.1.1), then the article's change (image nginx:mainline, partition 3)
    const base = seed('s1-2.1.1-sample-data.yaml');
    base.metadata = { ...base.metadata, name: 'sample', namespace: ns };
    await h.client.create(base);
    const first = await settled(ns, 'sample', 5, 60_000);
    expect(first.metadata!.generation).toBe(1);
    const before = await pods(ns);
    const [fragment] = article('s1-2.2.2.5-partition.yaml');
    await h.client.patch({ ...CS, namespace: ns, name: 'sample' }, fragment!, { type: 'merge' });
    await expect
      .poll(
        async () => {
          const cs = await cloneSet(ns, 'sample');
          const s = cs.status!;
          return {
            generation: cs.metadata!.generation,
            observedGeneration: s.observedGeneration,
            readyReplicas: s.readyReplicas,
            replicas: s.replicas,
            updatedReadyReplicas: s.updatedReadyReplicas,
            updatedReplicas: s.updatedReplicas,
          };
        },
        { timeout: 60_000, interval: 500 },
      )
      .toEqual({
        generation: 2,
        observedGeneration: 2,
        readyReplicas: 5,
        replicas: 5,
        updatedReadyReplicas: 2,
        updatedReplicas: 2,
      });
    const s = (await cloneSet(ns, 'sample')).status!;
    expect(s.currentRevision).toBe(first.status!.updateRevision);
    expect(s.updateRevision).not.toBe(s.currentRevision);
    expect(s.updateRevision).toMatch(/^sample-[a-z0-9]+$/);
    await holds(
      3_000,
      () => pods(ns),
      (now) => {
        const byRev = (rev: string | undefined) => now.filter((p) => p.metadata!.labels![REVISION] === rev);
        expect(byRev(s.currentRevision)).toHaveLength(3);
        expect(byRev(s.updateRevision)).toHaveLength(2);
        // the three old pods are the original ones; the two new ones are new pods (ReCreate)
        expect(before.map(uidOf)).toEqual(expect.arrayContaining(byRev(s.currentRevision).map(uidOf)));
        for (const p of byRev(s.updateRevision)) {
          expect(before.map(uidOf)).not.toContain(uidOf(p));
          expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
        }
      },
    );
  });
});
