// NodeImages follow the nodes (docs/imagepull.md "One NodeImage per node"; OpenKruise pkg/controller/nodeimage):
// every node gets one, labelled like the node, with zero counts (`kubectl get nodeimage` as the seed shows); a node
// added, relabelled or removed while the controller runs is followed; a fake NodeImage without a node is kept;
// the NodeImage webhook refuses a tag without its required fields.
import { afterAll, describe, expect, it } from 'vitest';
import { randomId } from '@regatta/testing';
import { NODE, NODE_IMAGE, useImagePullScenarios } from './testing/scenario-harness.js';

const h = useImagePullScenarios();
const id = randomId();
const added: string[] = [];
const poll = { timeout: 60_000, interval: 500 };

afterAll(async () => {
  for (const name of added) {
    await h.client.delete({ ...NODE, name }).catch(() => undefined);
    await h.client.delete({ ...NODE_IMAGE, name }).catch(() => undefined);
  }
});

describe('NodeImage per node', () => {
  // other files of the run pull images on these shared nodes, so only the NodeImage of a node added here is
  // known to hold no tag (the next scenario)
  it('every node has a NodeImage labelled like it', async () => {
    for (const node of h.nodes) {
      await expect
        .poll(async () => {
          const [ni, n] = [await h.nodeImage(node), await h.client.get({ ...NODE, name: node })];
          return JSON.stringify(ni?.metadata?.labels ?? {}) === JSON.stringify(n.metadata?.labels ?? {});
        }, poll)
        .toBe(true);
    }
  });

  it('a node added gets one, with zero counts; relabelled, its NodeImage follows; removed, its NodeImage goes', async () => {
    // a test node (tainted: other files' DaemonSets would otherwise put a pod on it for the few seconds it exists)
    const name = await h.addTestNode('imagepull', { zone: 'zone-a' });
    added.push(name);
    await expect.poll(async () => (await h.nodeImage(name))?.metadata?.labels?.['topology.kubernetes.io/zone'], poll).toBe('zone-a');
    await expect.poll(async () => (await h.nodeImage(name))?.status, poll).toMatchObject({
      desired: 0,
      pulling: 0,
      succeeded: 0,
      failed: 0,
    });
    await h.client.patch({ ...NODE, name }, { metadata: { labels: { 'node-type': 'xxx' } } }, { type: 'merge' });
    await expect.poll(async () => (await h.nodeImage(name))?.metadata?.labels?.['node-type'], poll).toBe('xxx');
    await h.client.delete({ ...NODE, name });
    await expect.poll(async () => await h.nodeImage(name), poll).toBeUndefined();
  });

  it('a fake NodeImage (no node) is kept; the webhook defaults its tags and refuses one without a TTL', async () => {
    const name = `fake-${id}`;
    added.push(name);
    const created = await h.client.create({
      ...NODE_IMAGE,
      metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true', ...h.scopeLabels } },
      spec: { images: { ubuntu: { tags: [{ tag: 'latest', pullPolicy: { ttlSecondsAfterFinished: 300 } }] } } },
    } as never);
    expect((created as { spec: { images: { ubuntu: { tags: unknown[] } } } }).spec.images.ubuntu.tags[0]).toMatchObject({
      tag: 'latest',
      pullPolicy: { ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3 },
    });
    await expect
      .poll(async () => (await h.nodeImage(name))?.status?.desired, poll)
      .toBe(1);
    await expect(
      h.client.create({
        ...NODE_IMAGE,
        metadata: { name: `${name}-bad`, labels: { 'apps.kruise.io/fake-nodeimage': 'true', ...h.scopeLabels } },
        spec: { images: { ubuntu: { tags: [{ tag: 'latest', pullPolicy: {} }] } } },
      } as never),
    ).rejects.toThrow(/pullPolicy.ttlSecondsAfterFinished for ubuntu\/latest must set/);
    await new Promise((r) => setTimeout(r, 3000));
    expect(await h.nodeImage(name)).toBeDefined();
  });
});
