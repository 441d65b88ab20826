// CloneSet rollout scenarios on the shared local cluster: what a user sees (pods, UIDs, restarts, status, events,
// traces) with the watcher and the cloneset program running as they run in the sandbox: paused, maxSurge, lifecycle
// hooks, a controller killed mid-rollout, rollout traces and holds, orphans, scale-up pace, InPlaceOnly.
import { describe, expect, it } from 'vitest';
import {
  CS,
  POD,
  type CloneSet,
  type Pod,
  isReady,
  seed,
  specOf,
  useCloneSetScenarios,
} from './testing/scenario-harness.js';

const h = useCloneSetScenarios();
const { namespace, pods, cloneSet, events, setImage, settled } = h;

/** The lifecycle demo of S1 §2.3.3 (2 replicas, preDelete and inPlaceUpdate label hooks) in `ns`, settled; its name. */
async function createLifecycleDemo(ns: string): Promise<string> {
  const demo = seed('s1-2.3.3-lifecycle-demo.yaml');
  // the article puts `containers` beside `metadata` in the template; a pod template needs them under `spec`
  const template = demo.spec['template'] as Record<string, unknown>;
  template['spec'] = { containers: template['containers'] };
  delete template['containers'];
  demo.metadata = { ...demo.metadata, namespace: ns };
  await h.client.create(demo);
  await settled(ns, demo.metadata.name!, 2);
  return demo.metadata.name!;
}

/** Waits for a pod of `ns` in lifecycle state `state` and returns it. */
async function podInState(ns: string, state: string): Promise<Pod> {
  let found: Pod | undefined;
  await expect
    .poll(
      async () => {
        found = (await pods(ns)).find((p) => p.metadata!.labels!['lifecycle.apps.kruise.io/state'] === state);
        return found !== undefined;
      },
      { timeout: 30_000, interval: 300 },
    )
    .toBe(true);
  return found!;
}

describe('CloneSet', () => {
  it('paused (S1 §2.2.2): a template change waits while paused and rolls once resumed; /metrics shows the phase', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'paused', namespace: ns };
    demo.spec.updateStrategy = { type: 'InPlaceIfPossible', paused: true };
    demo.spec['progressDeadlineSeconds'] = 600;
    await h.client.create(demo);
    await settled(ns, 'paused', 3);
    await setImage(ns, 'paused', 'nginx:mainline');
    await new Promise((r) => setTimeout(r, 4_000));
    const held = await cloneSet(ns, 'paused');
    expect(held.status).toMatchObject({ replicas: 3, updatedReplicas: 0, readyReplicas: 3 });
    expect((await pods(ns)).every((p) => specOf(p).containers[0]!.image === 'nginx:alpine')).toBe(true);
    const progressing = (cs: CloneSet) =>
      (
        (cs.status as { conditions?: { type: string; status: string; reason: string }[] }).conditions ?? []
      ).find((c) => c.type === 'Progressing');
    expect(progressing(held)).toMatchObject({ status: 'True', reason: 'CloneSetPaused' });
    // the program's /metrics, as Argo Rollouts' rollout_info: one series per workload, its phase a label
    const series = (text: string, name: string) =>
      new RegExp(`^${name}\\{kind="CloneSet",namespace="${ns}",name="paused"(?:,phase="(\\w+)")?\\} (\\d+)$`, 'm').exec(text);
    const sample = async () => {
      const text = await h.metrics();
      return {
        phase: series(text, 'regatta_rollout_info')?.[1],
        ...Object.fromEntries(
          ['desired', 'updated', 'ready', 'available'].map((f) => [f, Number(series(text, `regatta_rollout_replicas_${f}`)?.[2])]),
        ),
      };
    };
    await expect
      .poll(sample, { timeout: 10_000 })
      .toEqual({ phase: 'Paused', desired: 3, updated: 0, ready: 3, available: 3 });
    await h.client.patch(
      { ...CS, namespace: ns, name: 'paused' },
      { spec: { updateStrategy: { paused: false } } },
      { type: 'merge' },
    );
    await settled(ns, 'paused', 3);
    await expect
      .poll(async () => progressing(await cloneSet(ns, 'paused')), { timeout: 20_000 })
      .toMatchObject({ status: 'True', reason: 'CloneSetAvailable' });
    expect((await pods(ns)).every((p) => specOf(p).containers[0]!.image === 'nginx:mainline')).toBe(true);
    await expect
      .poll(sample, { timeout: 10_000 })
      .toEqual({ phase: 'Completed', desired: 3, updated: 3, ready: 3, available: 3 });
    expect((await h.metrics()).match(new RegExp(`regatta_rollout_info\\{[^}]*namespace="${ns}",name="paused"`, 'g'))).toHaveLength(1);
    // the pause is a span of the rollout's trace
    await expect
      .poll(async () => (await h.rolloutSpans(ns, 'paused')).map((sp) => sp.operationName), {
        timeout: 40_000,
        interval: 1000,
      })
      .toContain('cloneset.pause');
  });

  it('maxSurge with ReCreate: a surge pod comes first, and the rollout ends with exactly replicas pods', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'surge', namespace: ns };
    demo.spec.updateStrategy = { type: 'ReCreate', maxSurge: 1, maxUnavailable: 0 };
    await h.client.create(demo);
    const before = await settled(ns, 'surge', 3);
    await setImage(ns, 'surge', 'nginx:mainline');
    let maxSeen = 0;
    let minReady = 3;
    await expect
      .poll(
        async () => {
          const now = await pods(ns);
          maxSeen = Math.max(maxSeen, now.length);
          minReady = Math.min(minReady, now.filter(isReady).length);
          const cs = await cloneSet(ns, 'surge');
          const s = cs.status!;
          // the status must describe the new template, not still the old one
          return (
            s.observedGeneration === cs.metadata!.generation &&
            s.updateRevision !== before.status!.updateRevision &&
            s.currentRevision === s.updateRevision &&
            s.updatedReadyReplicas === 3 &&
            s.replicas === 3 &&
            now.length === 3
          );
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(true);
    // what maxSurge 1 / maxUnavailable 0 guarantee: never more than 4 pods, never fewer than 3 ready
    // (a 200 ms poll can miss the moment the 4th pod exists, so its presence is shown by the 6 creates)
    expect(maxSeen).toBeLessThanOrEqual(4);
    expect(minReady).toBeGreaterThanOrEqual(3);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(6);
  });

  it('lifecycle preDelete (S1 §2.3.3): a scaled-in pod waits in PreparingDelete until the hook label goes', async () => {
    const ns = await namespace();
    const name = await createLifecycleDemo(ns);
    await h.client.patch({ ...CS, namespace: ns, name }, { spec: { replicas: 1 } }, { type: 'merge' });
    const victim = await podInState(ns, 'PreparingDelete');
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await pods(ns)).map((p) => p.metadata!.uid)).toContain(victim.metadata!.uid);
    expect((await cloneSet(ns, name)).status!.replicas).toBe(2);
    // the user's hook finishes: it removes the label, and the controller deletes the pod
    await h.client.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: victim.metadata!.name! },
      { metadata: { labels: { 'example.com/unready-blocker-delete': null } } },
      { type: 'merge' },
    );
    await expect.poll(async () => (await pods(ns)).length, { timeout: 30_000 }).toBe(1);
    await expect.poll(async () => (await cloneSet(ns, name)).status!.replicas, { timeout: 10_000 }).toBe(1);
  });

  it('lifecycle inPlaceUpdate hook (S1 §2.3.3): a pod waits in PreparingUpdate until the hook label goes; the wait is a span', async () => {
    const ns = await namespace();
    const name = await createLifecycleDemo(ns);
    await setImage(ns, name, 'nginx:mainline');
    const hooked = await podInState(ns, 'PreparingUpdate');
    await new Promise((r) => setTimeout(r, 2_000));
    const still = await h.client.get<Pod>({ ...POD, namespace: ns, name: hooked.metadata!.name! });
    expect(specOf(still).containers[0]!.image).toBe('nginx:latest');
    // the user's hook is done: it removes the label, and the controller updates the pod in place
    await h.client.patch(
      { ...POD, namespace: ns, name: hooked.metadata!.name! },
      { metadata: { labels: { 'example.com/unready-blocker-inplace': null } } },
      { type: 'merge' },
    );
    await expect
      .poll(
        async () =>
          specOf(await h.client.get<Pod>({ ...POD, namespace: ns, name: hooked.metadata!.name! }))
            .containers[0]!.image,
        { timeout: 30_000 },
      )
      .toBe('nginx:mainline');
    await expect
      .poll(
        async () =>
          (await h.rolloutSpans(ns, name))
            .filter((sp) => sp.operationName === 'cloneset.hook-wait')
            .map((sp) => [sp.tags['k8s.pod.name'], sp.tags['cloneset.lifecycle.hook']]),
        { timeout: 40_000, interval: 1000 },
      )
      .toContainEqual([hooked.metadata!.name, 'inPlaceUpdate']);
  });

  it('kill -9 of the controller mid-rollout, then a restart: the rollout completes, no extra creates, maxUnavailable held', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'fault', namespace: ns };
    demo.spec.replicas = 6;
    demo.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 2 };
    await h.client.create(demo);
    await settled(ns, 'fault', 6);
    const uids = (await pods(ns)).map((p) => p.metadata!.uid).sort();
    await setImage(ns, 'fault', 'nginx:mainline');
    let maxUnready = 0;
    const sample = async () => {
      const now = await pods(ns);
      maxUnready = Math.max(maxUnready, now.filter((p) => !isReady(p)).length);
      return now;
    };
    await expect
      .poll(async () => (await sample()).some((p) => specOf(p).containers[0]!.image === 'nginx:mainline'), {
        timeout: 30_000,
        interval: 100,
      })
      .toBe(true);
    const killed = h.controller;
    killed.killNow();
    await killed.exited;
    const restarted = h.startController('b');
    const sampler = setInterval(() => void sample().catch(() => undefined), 200);
    try {
      await restarted;
      await settled(ns, 'fault', 6);
    } finally {
      clearInterval(sampler);
    }
    const now = await sample();
    expect(now.map((p) => p.metadata!.uid).sort()).toEqual(uids);
    for (const p of now) {
      expect(specOf(p).containers[0]!.image).toBe('nginx:mainline');
      expect(p.status!.containerStatuses![0]!.restartCount).toBe(1);
    }
    expect(maxUnready).toBeLessThanOrEqual(2);
    expect((await events(ns, 'SuccessfulCreate')).length).toBe(6);
    expect((await events(ns, 'SuccessfulDelete')).length).toBe(0);
  });

  it('a rollout is one trace in Jaeger: the root span with from → to, and one child span per pod update', async () => {
    expect(h.jaegerQuery).toBeDefined();
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'traced', namespace: ns };
    demo.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1 };
    await h.client.create(demo);
    const before = await settled(ns, 'traced', 3);
    await setImage(ns, 'traced', 'nginx:mainline');
    const after = await settled(ns, 'traced', 3);
    await expect
      .poll(
        async () =>
          JSON.parse(
            (await cloneSet(ns, 'traced')).metadata!.annotations!['regatta.dev/rollout-trace'] ?? '{}',
          ),
        {
          timeout: 20_000,
        },
      )
      .toMatchObject({ from: before.status!.updateRevision, to: after.status!.updateRevision, done: true });
    await expect
      .poll(async () => (await h.rolloutSpans(ns, 'traced')).map((sp) => sp.operationName).sort(), {
        timeout: 40_000,
        interval: 1000,
      })
      .toEqual(['cloneset.pod-update', 'cloneset.pod-update', 'cloneset.pod-update', 'cloneset.rollout']);
  });

  it('a partition hold is a span of the rollout: it ends when the partition is lowered', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'held', namespace: ns };
    demo.spec.updateStrategy = { type: 'InPlaceIfPossible', partition: 2, maxUnavailable: 1 };
    await h.client.create(demo);
    await settled(ns, 'held', 3);
    await setImage(ns, 'held', 'nginx:mainline');
    await expect
      .poll(async () => (await cloneSet(ns, 'held')).status?.updatedReadyReplicas, { timeout: 60_000 })
      .toBe(1);
    await expect
      .poll(
        async () =>
          JSON.parse((await cloneSet(ns, 'held')).metadata!.annotations!['regatta.dev/rollout-trace'] ?? '{}')
            .holds,
        { timeout: 20_000 },
      )
      .toHaveProperty('partition');
    await h.patch(ns, 'held', { spec: { updateStrategy: { partition: 0 } } });
    await settled(ns, 'held', 3);
    await expect
      .poll(
        async () =>
          (await h.rolloutSpans(ns, 'held'))
            .filter((sp) => sp.operationName === 'cloneset.partition-hold')
            .map((sp) => sp.tags['cloneset.hold']),
        { timeout: 40_000, interval: 1000 },
      )
      .toEqual(['partition']);
  });

  it('orphans: a matching pod without an owner is adopted; a pod relabelled out of the selector is released and replaced', async () => {
    const ns = await namespace();
    const orphan = await h.client.create<Pod>({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'stray', namespace: ns, labels: { app: 'adopt' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:alpine' }] },
    });
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'adopter', namespace: ns };
    demo.spec.replicas = 1;
    demo.spec['selector'] = { matchLabels: { app: 'adopt' } };
    (demo.spec['template'] as { metadata: { labels: Record<string, string> } }).metadata.labels = {
      app: 'adopt',
    };
    // paused: the adopted pod (no revision label) is not recreated to the template, so it stays observable
    demo.spec.updateStrategy = { paused: true };
    await h.client.create(demo);
    await expect
      .poll(
        async () =>
          (await h.client.get<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'stray' })).metadata
            ?.ownerReferences?.[0],
        { timeout: 30_000 },
      )
      .toMatchObject({ kind: 'CloneSet', name: 'adopter', controller: true });
    await expect
      .poll(async () => (await cloneSet(ns, 'adopter')).status?.replicas, { timeout: 20_000 })
      .toBe(1);
    expect((await pods(ns)).map((p) => p.metadata!.uid)).toEqual([orphan.metadata!.uid]);
    expect(await events(ns, 'SuccessfulCreate')).toHaveLength(0);

    await h.client.patch(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'stray' },
      { metadata: { labels: { app: 'gone' } } },
      { type: 'merge' },
    );
    await expect
      .poll(
        async () =>
          (await h.client.get<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'stray' })).metadata
            ?.ownerReferences ?? [],
        { timeout: 30_000 },
      )
      .toEqual([]);
    await expect
      .poll(
        async () =>
          (await pods(ns)).filter((p) => p.metadata!.ownerReferences?.[0]?.name === 'adopter').length,
        { timeout: 30_000 },
      )
      .toBe(1);
    expect((await pods(ns)).map((p) => p.metadata!.name)).toContain('stray');
  });

  it('scaleStrategy.maxUnavailable with minReadySeconds (S1 §2.1.3): pods come one at a time, minReadySeconds apart', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    const snippet = seed('s1-2.1.3-scale-max-unavailable.yaml');
    demo.metadata = { name: 'stream', namespace: ns };
    demo.spec = { ...demo.spec, ...snippet.spec, minReadySeconds: 3 };
    await h.client.create(demo);
    await expect
      .poll(async () => (await cloneSet(ns, 'stream')).status?.availableReplicas, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(3);
    const created = (await pods(ns))
      .map((p) => Date.parse(p.metadata!.creationTimestamp!))
      .sort((a, b) => a - b);
    expect(created[1]! - created[0]!).toBeGreaterThanOrEqual(3_000);
    expect(created[2]! - created[1]!).toBeGreaterThanOrEqual(3_000);
    expect((await events(ns, 'ScaleUpLimited'))[0]?.message).toBe(
      'scaleUp is limited because of scaleStrategy.maxUnavailable, limit: 1',
    );
  });

  it('InPlaceOnly: a template change other than images is rejected with its path', async () => {
    const ns = await namespace();
    const demo = seed('s1-2-cs-demo.yaml');
    demo.metadata = { name: 'only', namespace: ns };
    demo.spec.updateStrategy = { type: 'InPlaceOnly' };
    await h.client.create(demo);
    await expect(
      h.client.patch(
        { ...CS, namespace: ns, name: 'only' },
        [{ op: 'add', path: '/spec/template/spec/containers/0/env', value: [{ name: 'A', value: 'b' }] }],
        { type: 'json' },
      ),
    ).rejects.toThrow(
      /only allowed to update images in spec for InPlaceOnly, but found add \/containers\/0\/env/,
    );
    await setImage(ns, 'only', 'nginx:mainline');
    const after = await settled(ns, 'only', 3);
    expect((await pods(ns)).every((p) => specOf(p).containers[0]!.image === 'nginx:mainline')).toBe(true);
    expect(after.status!.updatedReadyReplicas).toBe(3);
  });
});
