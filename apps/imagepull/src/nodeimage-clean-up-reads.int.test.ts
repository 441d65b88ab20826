// The NodeImage controller reads a NodeImage from the API server only when its cached copy has something to clean
// (docs/reliability.md finding 27), and confirms an owner job gone only once (finding 28): a NodeImage of a busy node
// is up to a megabyte, reconciled after every tag and status write and every few seconds while a tag waits for its TTL.
// The other test files' programs reconcile every NodeImage too, so what is counted is this reconciler's requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCrds, type NodeImage } from '@regatta/api';
import { NodeImageReconciler } from '@regatta/imagepull';
import { retryOnConflict, type KubeClient } from '@regatta/kube';
import { installCrds } from '@regatta/local-cluster';
import { randomId, scenarioCluster } from '@regatta/testing';
import { cacheOf, fakeNodeImageWithTag, quietContext } from './testing/direct-reconcile.js';
import { NODE_IMAGE } from './testing/scenario-harness.js';

const name = `fake-${randomId()}-reads`;
const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ImagePullJob',
  namespace: 'team-a',
  name: 'warm-up',
  uid: 'uid-warm-up',
};

const WRITES = new Set(['replace', 'updateStatus', 'create', 'patch', 'delete']);

/** The cluster's client, counting the objects it reads by kind, and its writes. */
function countingClient(client: KubeClient): {
  client: KubeClient;
  reads: (kind: string) => number;
  writes: () => number;
} {
  const reads = new Map<string, number>();
  let writes = 0;
  const counting = new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && WRITES.has(prop)) writes++;
      if (prop !== 'getOrUndefined') return value;
      return (ref: { kind?: string }, ...rest: unknown[]) => {
        reads.set(ref.kind ?? '', (reads.get(ref.kind ?? '') ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).call(target, ref, ...rest);
      };
    },
  });
  return { client: counting, reads: (kind) => reads.get(kind) ?? 0, writes: () => writes };
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
  it('reads the NodeImage only when its cached copy has a tag to drop, and a gone owner only once', async () => {
    const { client } = scenarioCluster();
    const ctx = quietContext();
    const reconcilerWith = (c: KubeClient, nodeImage: NodeImage) =>
      new NodeImageReconciler({
        nodes: cacheOf([]),
        nodeimages: cacheOf([nodeImage]),
        imagepulljobs: cacheOf([]),
        client: c,
        recorder: { warning: async () => undefined },
      });
    // a tag without owners, which no NodeImage controller drops; its status written by the first to see it (this
    // reconciler, or another file's program)
    await client.create<NodeImage>(fakeNodeImageWithTag(name));
    const stored = await retryOnConflict(async () => {
      const current = await client.get<NodeImage>({ ...NODE_IMAGE, name });
      if (current.status) return current;
      await reconcilerWith(client, current).reconcile({ name }, ctx);
      return client.get<NodeImage>({ ...NODE_IMAGE, name });
    });
    expect(stored.status).toBeDefined();

    // nothing to clean: three reconciles, no read, no write
    const quiet = countingClient(client);
    const idle = reconcilerWith(quiet.client, stored);
    for (let i = 0; i < 3; i++) await idle.reconcile({ name }, ctx);
    expect(quiet.reads('NodeImage')).toBe(0);
    expect(quiet.writes()).toBe(0);

    // the cached copy holds a tag of a job that is gone (neither cached nor stored): the NodeImage is read
    const withGoneOwner = structuredClone(stored);
    withGoneOwner.spec!.images!['redis'] = structuredClone(withGoneOwner.spec!.images!['busybox']!);
    withGoneOwner.spec!.images!['redis'].tags[0]!.ownerReferences = [owner];
    const cleaning = countingClient(client);
    const cleaner = reconcilerWith(cleaning.client, withGoneOwner);
    await cleaner.reconcile({ name }, ctx);
    expect(cleaning.reads('NodeImage')).toBe(1);
    expect(cleaning.reads('ImagePullJob')).toBe(1);
    // reconciled again: the owner is known to be gone and not read again (finding 28)
    await cleaner.reconcile({ name }, ctx);
    expect(cleaning.reads('NodeImage')).toBe(2);
    expect(cleaning.reads('ImagePullJob')).toBe(1);
  });
});
