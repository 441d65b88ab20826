// Image pre-download end to end (docs/cloneset.md "Image pre-download"; OpenKruise e2e "pre-download images" in
// test/e2e/apps/v1alpha1/cloneset.go): with PreDownloadImageForInPlaceUpdate on, an in-place rollout held by a
// partition creates the ImagePullJob OpenKruise creates for its new image; the imagepull program and one agent per
// node (pulling through the simulated CRI ImageService) complete it on the nodes of the pods still to update; the
// rollout then completes in place and the job is deleted with it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_PULL_JOB_API_VERSION, type ImagePullJob, type NodeImage } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { NodeSimulator } from '@regatta/node-simulator';
import { randomId, scenarioCluster, useScenarioPrograms } from '@regatta/testing';
import { type CloneSet, type Pod, specOf, useCloneSetScenarios } from './testing/scenario-harness.js';

const h = useCloneSetScenarios({ env: { REGATTA_FEATURE_GATES: 'PreDownloadImageForInPlaceUpdate=true' } });
const { namespace, pods, cloneSet, events, setImage, patch, settled } = h;

const id = randomId();
const POOL = 'regatta.test/predownload';
const scopeLabel = 'regatta-test-predownload';
const programs = useScenarioPrograms();
let sim: NodeSimulator | undefined;
let socketDir = '';

// private nodes serving CRI (tainted: other files' pods stay off), a watcher on their own bus prefix, the imagepull
// program for this file's namespaces and one agent per node, started as the sandbox starts them
beforeAll(async () => {
  const cluster = scenarioCluster();
  socketDir = await mkdtemp(join(tmpdir(), 'regatta-cri-'));
  sim = await NodeSimulator.start({
    kubeconfig: cluster.kubeconfig,
    nodes: 2,
    namePrefix: `predl-${id}-`,
    labels: { [POOL]: id },
    taints: [{ key: POOL, value: id, effect: 'NoSchedule' }],
    removeNodesOnStop: true,
    storageClass: '',
    criSocketDir: socketDir,
    timings: { imagePullMs: 500 },
  });
  const env = {
    KUBECONFIG: cluster.kubeconfig,
    NATS_URL: cluster.nats!,
    REGATTA_BUS_PREFIX: `pd${id}_`,
    LOG_LEVEL: 'info',
  };
  const leaseNs = `predl-lease-${id}`;
  await h.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
  await programs.start('watcher', `watcher-predl-${id}`, { ...env, POD_NAME: `watcher-predl-${id}` });
  await programs.start(
    'imagepull',
    `imagepull-predl-${id}`,
    {
      ...env,
      POD_NAME: `imagepull-predl-${id}`,
      REGATTA_NAMESPACE_SELECTOR: `${scopeLabel}=${id}`,
      REGATTA_LEASE_NAMESPACE: leaseNs,
      REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '1',
    },
    { webhook: true },
  );
  for (const node of sim.nodeNames)
    await programs.start('imagepull-agent', `imagepull-agent-predl-${id}-${node}`, {
      ...env,
      NODE_NAME: node,
      CRI_SOCKET: sim.criSocket(node)!,
    });
}, 240_000);

afterAll(async () => {
  for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'])
    await h.client
      .delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: `regatta-imagepull-${id}` })
      .catch(() => undefined);
  for (const node of sim?.nodeNames ?? [])
    await h.client.delete({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node }).catch(() => undefined);
  await sim?.stop();
  if (socketDir) await rm(socketDir, { recursive: true, force: true });
});

const JOB = { apiVersion: IMAGE_PULL_JOB_API_VERSION, kind: 'ImagePullJob' } as const;
const jobs = async (ns: string) => (await h.client.list<ImagePullJob>({ ...JOB, namespace: ns })).items;
const template = (cs: CloneSet) => cs.spec['template'] as { spec: Record<string, unknown> };

describe('CloneSet image pre-download (PreDownloadImageForInPlaceUpdate)', () => {
  it('an in-place rollout held by a partition gets an ImagePullJob for its new image, pulled on the nodes of the pods still to update; the rollout completes in place and the job goes', async () => {
    const ns = await namespace();
    await h.client.patch({ apiVersion: 'v1', kind: 'Namespace', name: ns }, { metadata: { labels: { [scopeLabel]: id } } }, { type: 'merge' });
    await h.createDemo(ns, 'predl', (cs) => {
      cs.metadata!.annotations = {
        'apps.kruise.io/image-predownload-parallelism': '2',
        'apps.kruise.io/image-predownload-min-updated-ready-pods': '1',
      };
      cs.spec.replicas = 4;
      cs.spec.updateStrategy = { type: 'InPlaceIfPossible', maxUnavailable: 1, partition: 2 };
      const t = template(cs);
      t.spec['nodeSelector'] = { [POOL]: id };
      t.spec['tolerations'] = [{ key: POOL, operator: 'Equal', value: id, effect: 'NoSchedule' }];
      t.spec['containers'] = [{ name: 'nginx', image: 'nginx:alpine', imagePullPolicy: 'IfNotPresent' }];
    });
    const before = await settled(ns, 'predl', 4, 90_000);
    const uids = new Map((await pods(ns)).map((p) => [p.metadata!.name!, p.metadata!.uid!]));
    // nothing to pre-download without a rollout
    expect(await jobs(ns)).toEqual([]);

    await setImage(ns, 'predl', 'nginx:mainline');
    // partition 2: two pods are updated in place, two stay at the current revision
    let cs: CloneSet = before;
    await expect
      .poll(
        async () => {
          cs = await cloneSet(ns, 'predl');
          return [cs.status?.updatedReadyReplicas, cs.status?.updateRevision !== before.status?.updateRevision];
        },
        { timeout: 90_000, interval: 500 },
      )
      .toEqual([2, true]);
    const updateRevision = cs.status!.updateRevision!;

    // the job OpenKruise creates: <update revision>-<container>, controlled by the CloneSet
    const name = `${updateRevision}-nginx`;
    await expect.poll(async () => (await jobs(ns)).map((j) => j.metadata?.name), { timeout: 60_000, interval: 500 }).toEqual([name]);
    const job = (await jobs(ns))[0]!;
    const hash = updateRevision.slice('predl-'.length);
    expect(job.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'CloneSet', name: 'predl', uid: cs.metadata!.uid, controller: true }),
    ]);
    expect(job.metadata?.labels).toMatchObject({ 'controller.kubernetes.io/hash': hash });
    expect(job.spec).toMatchObject({
      image: 'nginx:mainline',
      parallelism: 2,
      pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 },
      completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      podSelector: {
        matchExpressions: expect.arrayContaining([
          { key: 'controller-revision-hash', operator: 'NotIn', values: [updateRevision, hash] },
        ]),
      },
    });
    await expect
      .poll(async () => (await events(ns, 'CreatedImagePullJob')).map((e) => e.message), { timeout: 30_000, interval: 500 })
      .toEqual([`created ImagePullJob ${name} for image: nginx:mainline`]);
    const revision = await h.client.get<KubeObject>({ apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace: ns, name: updateRevision });
    expect(revision.metadata?.labels?.['apps.kruise.io/pre-predownload-created']).toBe('true');

    // the imagepull program and the agents pull it on the nodes of the two pods not yet updated
    const oldNodes = [
      ...new Set(
        (await pods(ns))
          .filter((p: Pod) => p.metadata?.labels?.['controller-revision-hash'] !== updateRevision)
          .map((p) => specOf(p).nodeName as string),
      ),
    ].sort();
    expect(oldNodes.length).toBeGreaterThan(0);
    await expect
      .poll(async () => (await jobs(ns))[0]?.status, { timeout: 120_000, interval: 1000 })
      .toMatchObject({ desired: oldNodes.length, succeeded: oldNodes.length, failed: 0, completionTime: expect.any(String) });
    for (const node of oldNodes) {
      const ni = await h.client.get<NodeImage>({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node });
      expect(ni.status?.imageStatuses?.['nginx']?.tags?.find((t) => t.tag === 'mainline')?.phase).toBe('Succeeded');
    }

    // the rollout goes on in place (same pods, one restart each) and, once it is over, the job is deleted
    await patch(ns, 'predl', { spec: { updateStrategy: { partition: 0 } } });
    await settled(ns, 'predl', 4, 90_000);
    const after = await pods(ns);
    expect(new Map(after.map((p) => [p.metadata!.name!, p.metadata!.uid!]))).toEqual(uids);
    expect(after.map((p) => specOf(p).containers[0]!.image)).toEqual(Array(4).fill('nginx:mainline'));
    await expect.poll(async () => (await jobs(ns)).filter((j) => !j.metadata?.deletionTimestamp).length, { timeout: 60_000, interval: 500 }).toBe(0);
    expect(await events(ns, 'FailedCreateImagePullJob')).toEqual([]);
  });
});
