// The NodeImage controller reads a NodeImage from the API server only when its cached copy has something to clean
// (docs/reliability.md finding 27), and confirms an owner job gone only once (finding 28): a NodeImage of a busy node
// is up to a megabyte, reconciled after every tag and status write and every few seconds while a tag waits for its TTL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCrds, type NodeImage } from '@regatta/api';
import { NodeImageReconciler } from '@regatta/imagepull';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { installCrds } from '@regatta/local-cluster';
import { silentLogger, type ReconcileContext } from '@regatta/runtime';
import { randomId, scenarioCluster } from '@regatta/testing';

const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const name = `fake-${randomId()}-reads`;
const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ImagePullJob',
  namespace: 'team-a',
  name: 'warm-up',
  uid: 'uid-warm-up',
};

/** A cache holding the given objects. */
const cache = (objects: KubeObject[]) => ({
  get: (_ns: string | undefined, n: string) => objects.find((o) => o.metadata?.name === n),
  list: () => objects,
});

/** The cluster's client, counting the objects it reads by kind. */
function countingClient(client: KubeClient): { client: KubeClient; reads: (kind: string) => number } {
  const reads = new Map<string, number>();
  const counting = new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop !== 'getOrUndefined' || typeof value !== 'function') return value;
      return (ref: { kind?: string }, ...rest: unknown[]) => {
        reads.set(ref.kind ?? '', (reads.get(ref.kind ?? '') ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).call(target, ref, ...rest);
      };
    },
  });
  return { client: counting, reads: (kind) => reads.get(kind) ?? 0 };
}

beforeAll(async () => {
  await installCrds(scenarioCluster().kubeconfig, generateCrds());
});

afterAll(async () => {
  await scenarioCluster()
    .client.delete({ ...NODE_IMAGE, name })
    .catch(() => undefined);
});

describe('NodeImage clean-up reads', () => {
  it('reads the NodeImage only once its cached copy has a tag to drop, then drops it', async () => {
    const { client } = scenarioCluster();
    const created = await client.create<NodeImage>({
      ...NODE_IMAGE,
      metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true' } },
      spec: {
        images: {
          busybox: {
            tags: [
              {
                tag: '1.36',
                createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
                ownerReferences: [owner],
                pullPolicy: { ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3 },
              },
            ],
          },
        },
      },
    } as NodeImage);
    const job: KubeObject = {
      apiVersion: owner.apiVersion,
      kind: owner.kind,
      metadata: { name: owner.name, namespace: owner.namespace, uid: owner.uid },
    };
    const ctx: ReconcileContext = {
      reconcileID: 'r',
      log: silentLogger,
      signal: new AbortController().signal,
    };
    const reconcilerWith = (jobs: KubeObject[], c: KubeClient, nodeImage: NodeImage) =>
      new NodeImageReconciler({
        nodes: cache([]),
        nodeimages: cache([nodeImage]),
        imagepulljobs: cache(jobs),
        client: c,
        recorder: { warning: async () => undefined },
      });
    // the NodeImage as the controller leaves it: its first reconcile writes its status
    await reconcilerWith([job], client, created).reconcile({ name }, ctx);
    const stored = await client.get<NodeImage>({ ...NODE_IMAGE, name });
    expect(stored.status).toBeDefined();

    // its owner job still there: three reconciles, no read, nothing written
    const quiet = countingClient(client);
    const withJob = reconcilerWith([job], quiet.client, stored);
    for (let i = 0; i < 3; i++) await withJob.reconcile({ name }, ctx);
    expect(quiet.reads('NodeImage')).toBe(0);
    const after = await client.get<NodeImage>({ ...NODE_IMAGE, name });
    expect(after.metadata?.resourceVersion).toBe(stored.metadata?.resourceVersion);

    // the job gone (neither cached nor stored): the NodeImage is read once and its tag dropped
    const cleaning = countingClient(client);
    await expect(reconcilerWith([], cleaning.client, stored).reconcile({ name }, ctx)).resolves.toEqual({});
    expect(cleaning.reads('NodeImage')).toBe(1);
    // the owner confirmed gone once, though looked up on the cached copy and on the one read (finding 28)
    expect(cleaning.reads('ImagePullJob')).toBe(1);
    const cleaned = await client.get<NodeImage>({ ...NODE_IMAGE, name });
    expect(cleaned.spec?.images ?? {}).toEqual({});
  });
});
