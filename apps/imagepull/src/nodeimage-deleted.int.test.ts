// A NodeImage deleted while its reconcile runs (docs/imagepull.md "One NodeImage per node"): the controller's cache
// still holds it, the API server no longer does. The reconcile ends quietly — no error for the queue to retry and
// log, no event for a tag the deletion took away — as a controller treats an object gone under it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCrds, type NodeImage } from '@regatta/api';
import { NodeImageReconciler } from '@regatta/imagepull';
import { installCrds } from '@regatta/local-cluster';
import { randomId, scenarioCluster } from '@regatta/testing';
import { cacheOf, fakeNodeImageWithTag, quietContext } from './testing/direct-reconcile.js';
import { NODE_IMAGE } from './testing/scenario-harness.js';

const name = `fake-${randomId()}-deleted`;

beforeAll(async () => {
  await installCrds(scenarioCluster().kubeconfig, generateCrds());
});

afterAll(async () => {
  await scenarioCluster().client.delete({ ...NODE_IMAGE, name }).catch(() => undefined);
});

describe('NodeImage deleted under its reconcile', () => {
  it('ends the reconcile without an error or an event when the API server says 404', async () => {
    const { client } = scenarioCluster();
    // a fake NodeImage (no Node) whose tag a node never answered: an hour later its status would be written Failed
    const created = await client.create<NodeImage>(fakeNodeImageWithTag(name));
    await client.delete({ ...NODE_IMAGE, name });
    await expect.poll(() => client.getOrUndefined({ ...NODE_IMAGE, name }), { timeout: 30_000 }).toBeUndefined();

    const warnings: string[] = [];
    const reconciler = new NodeImageReconciler({
      nodes: cacheOf([]),
      nodeimages: cacheOf([created]),
      imagepulljobs: cacheOf([]),
      client,
      recorder: { warning: async (_o, reason, message) => void warnings.push(`${reason}: ${message}`) },
      now: () => new Date(Date.now() + 3600_000),
    });
    await expect(reconciler.reconcile({ name }, quietContext())).resolves.toEqual({});
    expect(warnings).toEqual([]);
  });
});
