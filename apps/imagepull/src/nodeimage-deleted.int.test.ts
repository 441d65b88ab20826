// A NodeImage deleted while its reconcile runs (docs/imagepull.md "One NodeImage per node"): the controller's cache
// still holds it, the API server no longer does. The reconcile ends quietly — no error for the queue to retry and
// log, no event for a tag the deletion took away — as a controller treats an object gone under it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCrds, type NodeImage } from '@regatta/api';
import { NodeImageReconciler } from '@regatta/imagepull';
import type { KubeObject } from '@regatta/kube';
import { installCrds } from '@regatta/local-cluster';
import { silentLogger, type ReconcileContext } from '@regatta/runtime';
import { randomId, scenarioCluster } from '@regatta/testing';

const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const name = `fake-${randomId()}-deleted`;

/** A cache that still answers with what it last saw. */
const stale = (objects: KubeObject[]) => ({
  get: (_ns: string | undefined, n: string) => objects.find((o) => o.metadata?.name === n),
  list: () => objects,
});

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
                pullPolicy: { ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3 },
              },
            ],
          },
        },
      },
    } as NodeImage);
    await client.delete({ ...NODE_IMAGE, name });
    await expect.poll(() => client.getOrUndefined({ ...NODE_IMAGE, name }), { timeout: 30_000 }).toBeUndefined();

    const warnings: string[] = [];
    const reconciler = new NodeImageReconciler({
      nodes: stale([]),
      nodeimages: stale([created]),
      imagepulljobs: stale([]),
      client,
      recorder: { warning: async (_o, reason, message) => void warnings.push(`${reason}: ${message}`) },
      now: () => new Date(Date.now() + 3600_000),
    });
    const ctx: ReconcileContext = { reconcileID: 'r', log: silentLogger, signal: new AbortController().signal };
    await expect(reconciler.reconcile({ name }, ctx)).resolves.toEqual({});
    expect(warnings).toEqual([]);
  });
});
