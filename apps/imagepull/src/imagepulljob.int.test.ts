// ImagePullJobs alone (docs/imagepull.md; OpenKruise test/e2e/apps/v1beta1/pullimages.go), aimed at fake NodeImages
// (no Node, no agent behind them — as upstream's e2e uses one) with the test answering for them as the agent would: the job writes its tag into at most `parallelism` NodeImages at a time, counts
// what the nodes report, completes, is deleted after ttlSecondsAfterFinished and its tag leaves the NodeImages;
// pull secrets are copied into kruise-daemon-config and released; a Never job re-warms after its tag's TTL; a node
// that never answers fails the pull; admission refuses what OpenKruise refuses, and answers 403 with the gate off.
import { describe, expect, it } from 'vitest';
import { JOB, JOB_V1ALPHA1, useImagePullScenarios } from './testing/scenario-harness.js';

const h = useImagePullScenarios({ REGATTA_IMAGEPULL_NEVER_TTL_SECONDS: '8' });
const poll = { timeout: 60_000, interval: 500 };
const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;

describe('ImagePullJob', () => {
  it('parallelism 2 over 5 nodes by label: at most 2 nodes pull at a time; completes; deleted by TTL; tag removed', async () => {
    const ns = await h.namespace();
    const image = `regatta.test/warm-${ns}`;
    const nodes = await h.fakeNodes('warm', 5);
    await h.createJob(ns, 'warm', {
      image: `${image}:1.0`,
      selector: { matchLabels: { group: nodes[0]!.replace(/^fake-/, '').replace(/-\d+$/, '') } },
      parallelism: 2,
      completionPolicy: { type: 'Always', activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 5 },
    });
    const answered = new Set<string>();
    const maxActive: number[] = [];
    await expect
      .poll(
        async () => {
          const holding = await h.holding(image, '1.0');
          const active = holding.filter((n) => !answered.has(n));
          maxActive.push(active.length);
          for (const node of active) {
            await h.answer(node, image, '1.0', 'Succeeded');
            answered.add(node);
          }
          return answered.size;
        },
        { timeout: 90_000, interval: 1000 },
      )
      .toBe(nodes.length);
    expect(Math.max(...maxActive)).toBeLessThanOrEqual(2);
    await expect.poll(async () => (await h.job(ns, 'warm'))?.status?.completionTime, poll).toBeDefined();
    const done = (await h.job(ns, 'warm'))!;
    expect(done.status).toMatchObject({ desired: nodes.length, succeeded: nodes.length, failed: 0, active: 0, message: 'job has completed' });
    await expect.poll(async () => await h.job(ns, 'warm'), poll).toBeUndefined();
    await expect.poll(() => h.holding(image, '1.0'), poll).toEqual([]);
  });

  it('selector.names: desired 1, a failed pull is counted with its node; v1alpha1 shows the same job', async () => {
    const ns = await h.namespace();
    const image = `regatta.test/one-${ns}`;
    const [node] = (await h.fakeNodes('one', 2)) as [string, string];
    await h.createJob(ns, 'one', { image: `${image}:2`, selector: { names: [node] }, completionPolicy: { type: 'Always' } });
    await expect.poll(() => h.holding(image, '2'), poll).toEqual([node]);
    await expect.poll(async () => (await h.job(ns, 'one'))?.status?.active, poll).toBe(1);
    await h.answer(node, image, '2', 'Failed');
    await expect.poll(async () => (await h.job(ns, 'one'))?.status?.completionTime, poll).toBeDefined();
    expect((await h.job(ns, 'one'))?.status).toMatchObject({ desired: 1, failed: 1, failedNodes: [node] });
    const alpha = await h.client.get({ ...JOB_V1ALPHA1, namespace: ns, name: 'one' });
    expect((alpha as { spec: { completionPolicy: unknown } }).spec.completionPolicy).toEqual({ type: 'Always' });
    await h.client.delete({ ...JOB, namespace: ns, name: 'one' });
    await expect.poll(async () => await h.job(ns, 'one'), poll).toBeUndefined();
    await expect.poll(() => h.holding(image, '2'), poll).toEqual([]);
  });

  it('pull secrets: a synced copy with the same data in kruise-daemon-config, referenced by the NodeImages, released at the end', async () => {
    const ns = await h.namespace();
    const image = `regatta.test/private-${ns}`;
    const [node] = (await h.fakeNodes('private', 1)) as [string];
    const data = { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') };
    await h.client.create({ ...SECRET, metadata: { name: 'reg', namespace: ns }, type: 'kubernetes.io/dockerconfigjson', data } as never);
    await h.createJob(ns, 'private', { image: `${image}:1`, pullSecrets: ['reg'], selector: { names: [node] }, completionPolicy: { type: 'Always' } });
    const copies = async () =>
      (await h.client.list<{ metadata: { name: string; annotations?: Record<string, string> }; data?: unknown }>({ ...SECRET, namespace: 'kruise-daemon-config' })).items.filter(
        (s) => s.metadata.annotations?.['imagepulljobs.kruise.io/source-key'] === `${ns}/reg`,
      );
    await expect.poll(async () => (await copies()).length, poll).toBe(1);
    const [copy] = await copies();
    expect(copy!.data).toEqual(data);
    expect(copy!.metadata.annotations?.['imagepulljobs.kruise.io/references']).toBe(`${ns}/private`);
    await expect
      .poll(async () => (await h.nodeImage(node))?.spec?.images?.[image]?.pullSecrets, poll)
      .toEqual([{ namespace: 'kruise-daemon-config', name: copy!.metadata.name, mode: 'batch' }]);
    await expect(
      h.client.patch({ ...JOB, namespace: ns, name: 'private' }, { spec: { pullSecrets: ['other'] } }, { type: 'merge' }),
    ).rejects.toThrow(/spec.pullSecrets is immutable/);
    await h.answer(node, image, '1', 'Succeeded');
    await expect.poll(async () => (await h.job(ns, 'private'))?.status?.completionTime, poll).toBeDefined();
    await expect.poll(async () => (await copies()).length, poll).toBe(0);
  });

  it('Never: keeps going (no completionTime) and re-warms once its tag TTL passed (a new pull round)', async () => {
    const ns = await h.namespace();
    const image = `regatta.test/daily-${ns}`;
    const [node] = (await h.fakeNodes('daily', 1)) as [string];
    await h.createJob(ns, 'daily', { image: `${image}:1`, selector: { names: [node] }, completionPolicy: { type: 'Never' } });
    const tagOf = async () => (await h.nodeImage(node))?.spec?.images?.[image]?.tags[0];
    await expect.poll(async () => (await tagOf())?.version, poll).toBe(0);
    const first = (await tagOf())!;
    expect(first.pullPolicy?.ttlSecondsAfterFinished).toBe(8);
    await h.answer(node, image, '1', 'Succeeded');
    await expect.poll(async () => (await h.job(ns, 'daily'))?.status?.succeeded, poll).toBe(1);
    expect((await h.job(ns, 'daily'))?.status?.completionTime).toBeUndefined();
    // the tag's TTL (8 s here, a day by default) passes: the NodeImage drops it, the job writes it again at the
    // next version (the node's status of the old round is still there), which makes the node pull again
    await expect.poll(async () => (await tagOf())?.version, { timeout: 90_000, interval: 500 }).toBe(1);
    await expect.poll(async () => (await h.job(ns, 'daily'))?.status, poll).toMatchObject({ desired: 1, active: 1, succeeded: 0 });
    expect((await h.job(ns, 'daily'))?.status?.completionTime).toBeUndefined();
    await h.client.delete({ ...JOB, namespace: ns, name: 'daily' });
    await expect.poll(async () => (await tagOf())?.tag, poll).toBeUndefined();
  });

  it('a node that never answers: the tag fails ("node has not responded"), PullImageFailed on the job', async () => {
    const ns = await h.namespace();
    const image = `regatta.test/silent-${ns}`;
    const [node] = (await h.fakeNodes('silent', 1)) as [string];
    await h.createJob(ns, 'silent', { image: `${image}:1`, selector: { names: [node] }, completionPolicy: { type: 'Always' } });
    await expect.poll(async () => (await h.job(ns, 'silent'))?.status?.failed, { timeout: 120_000, interval: 1000 }).toBe(1);
    const tag = (await h.nodeImage(node))?.status?.imageStatuses?.[image]?.tags[0];
    expect(tag).toMatchObject({ phase: 'Failed', message: 'node has not responded for a long time' });
    await expect
      .poll(async () => (await h.events(ns, 'ImagePullJob', 'PullImageFailed')).map((e) => e.message), poll)
      .toContain(`Failed to pull image ${image}:1 on node ${node} for node has not responded for a long time`);
  });

  it("admission: the seed's job is refused with OpenKruise's reason; bad parallelism too", async () => {
    const ns = await h.namespace();
    const seed = {
      image: 'nginx:1.9.1',
      parallelism: 10,
      selector: { names: ['node1', 'node2'], matchLabels: { 'node-type': 'xxx' } },
      completionPolicy: { type: 'Always', activeDeadlineSeconds: 1200, ttlSecondsAfterFinished: 300 },
      pullPolicy: { backoffLimit: 3, timeoutSeconds: 300 },
      pullSecrets: ['secret-name1', 'secret-name2'],
    };
    await expect(
      h.client.create({ ...JOB_V1ALPHA1, metadata: { name: 'job-with-always', namespace: ns }, spec: seed } as never),
    ).rejects.toThrow(/spec.selector: .*can not set both names and labelSelector in this spec.selector/);
    await expect(h.createJob(ns, 'pct', { image: 'nginx:1', parallelism: '50%', completionPolicy: {} })).rejects.toThrow(
      /parallelism does not support percentage value/,
    );
    const ok = await h.createJob(ns, 'defaults', { image: 'nginx:1', completionPolicy: {} });
    expect(ok.spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' });
    expect(ok.metadata?.finalizers).toContain('apps.kruise.io/deletion-protection');
  });

  it('ImagePullJobGate=false: every create is refused with 403 "feature-gate ImagePullJobGate is not enabled"', async () => {
    const off = await h.startScoped({ REGATTA_FEATURE_GATES: 'ImagePullJobGate=false' });
    const ns = await off.namespace();
    await expect(h.createJob(ns, 'gated', { image: 'nginx:1', completionPolicy: {} })).rejects.toThrow(
      /feature-gate ImagePullJobGate is not enabled/,
    );
  });
});
