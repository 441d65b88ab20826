// The node agent on the shared cluster: three simulated nodes of its own serving the CRI ImageService on unix
// sockets, a watcher on its own bus prefix, one agent per node. NodeImage specs are written as the ImagePullJob
// controller writes them; what a user sees is the NodeImage status, node.status.images and the events.
import { describe, expect, it } from 'vitest';
import { isAlreadyExists, isConflict, type KubeObject } from '@regatta/kube';
import { usePrivateNodes } from './testing/private-nodes.js';

interface TagStatus {
  tag: string;
  phase: string;
  version?: number;
  imageID?: string;
  message?: string;
  startTime?: string;
  completionTime?: string;
}
interface NodeImage extends KubeObject {
  spec?: { images?: Record<string, { tags: Record<string, unknown>[] }> };
  status?: {
    desired: number;
    succeeded?: number;
    failed?: number;
    imageStatuses?: Record<string, { tags: TagStatus[] }>;
  };
}
interface CoreEvent {
  reason: string;
  message: string;
  type: string;
  source?: { component?: string; host?: string };
  involvedObject: { kind: string; name: string; namespace?: string };
}

const NI = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' };
const t = usePrivateNodes({
  short: 'ipa',
  nodes: 3,
  imagePullMs: 1000,
  // the NodeImages, as the NodeImage controller creates them, before the agents start
  before: async (p) => {
    for (const node of p.nodes()) {
      await p.client.create({ ...NI, metadata: { name: node }, spec: {} }).catch((err: unknown) => {
        if (!isAlreadyExists(err)) throw err;
      });
    }
  },
});
const { id } = t;
const nodes = () => t.nodes();
// the owner of the hand-written tags: not an ImagePullJob, so a NodeImage controller running for another file keeps
// it (it drops ImagePullJob owners that do not exist)
const owner = {
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'CloneSet',
  namespace: 'default',
  name: `owner-${id}`,
  uid: `uid-${id}`,
};

const tagSpec = (tag: string, extra: Record<string, unknown> = {}) => ({
  tag,
  version: 0,
  createdAt: new Date().toISOString(),
  imagePullPolicy: 'IfNotPresent',
  pullPolicy: { timeoutSeconds: 30, backoffLimit: 3, ttlSecondsAfterFinished: 600 },
  ownerReferences: [owner],
  ...extra,
});

/** Writes the image's tags into a node's NodeImage, as the ImagePullJob controller does. */
async function setTags(node: string, image: string, tags: Record<string, unknown>[]): Promise<void> {
  // the agent writes the status meanwhile: retried on conflict, as a controller does
  for (let i = 0; ; i++) {
    const cur = await t.client.get<NodeImage>({ ...NI, name: node });
    const images = { ...cur.spec?.images, [image]: { tags } };
    try {
      await t.client.replace({ ...cur, spec: { ...cur.spec, images } });
      return;
    } catch (err) {
      if (i >= 10 || !isConflict(err)) throw err;
    }
  }
}

async function tagStatus(node: string, image: string, tag: string): Promise<TagStatus | undefined> {
  const ni = await t.client.get<NodeImage>({ ...NI, name: node });
  return ni.status?.imageStatuses?.[image]?.tags.find((t) => t.tag === tag);
}

async function nodeImageEvents(node: string, reason: string): Promise<CoreEvent[]> {
  const all = (
    await t.client.list<CoreEvent & KubeObject>({ apiVersion: 'v1', kind: 'Event', namespace: 'default' })
  ).items;
  return all.filter(
    (e) => e.involvedObject.kind === 'NodeImage' && e.involvedObject.name === node && e.reason === reason,
  );
}

describe('image puller agent', () => {
  it('pulls a tag on every node through CRI: Succeeded, imageID, node.status.images, PullImageSucceed', async () => {
    for (const node of nodes()) await setTags(node, 'nginx', [tagSpec('1.20')]);
    for (const node of nodes()) {
      await expect
        .poll(() => tagStatus(node, 'nginx', '1.20'), { timeout: 60_000, interval: 500 })
        .toMatchObject({
          phase: 'Succeeded',
          version: 0,
          imageID: expect.stringMatching(/^nginx@sha256:[0-9a-f]{64}$/),
        });
      const ni = await t.client.get<NodeImage>({ ...NI, name: node });
      expect(ni.status).toMatchObject({ desired: 1, succeeded: 1, failed: 0 });
      await expect
        .poll(
          async () =>
            (
              await t.client.get<{ status?: { images?: { names: string[] }[] } } & KubeObject>({
                apiVersion: 'v1',
                kind: 'Node',
                name: node,
              })
            ).status?.images?.flatMap((i) => i.names),
          { timeout: 30_000 },
        )
        .toContain('docker.io/library/nginx:1.20');
      await expect
        .poll(() => nodeImageEvents(node, 'PullImageSucceed'), { timeout: 20_000 })
        .toEqual([
          expect.objectContaining({
            type: 'Normal',
            source: expect.objectContaining({ component: 'kruise-daemon-imagepuller', host: node }),
            message: expect.stringMatching(/^Image nginx:1\.20, ecalpsedTime /),
          }),
        ]);
    }
  });

  it('a failing pull backs off between attempts and ends Failed with PullImageFailed on the owner and the NodeImage', async () => {
    t.sim.setFaults({ failPullImages: ['nginx:broken*'] });
    const node = nodes()[1]!;
    await setTags(node, 'nginx', [
      tagSpec('1.20'),
      tagSpec('broken-1', {
        pullPolicy: { timeoutSeconds: 30, backoffLimit: 2, ttlSecondsAfterFinished: 600 },
      }),
    ]);
    await expect
      .poll(() => tagStatus(node, 'nginx', 'broken-1'), { timeout: 60_000, interval: 500 })
      .toMatchObject({
        phase: 'Failed',
        message: expect.stringMatching(/not found/),
      });
    const st = (await tagStatus(node, 'nginx', 'broken-1'))!;
    // three attempts with 1 s and 2 s of backoff between them
    expect(Date.parse(st.completionTime!) - Date.parse(st.startTime!)).toBeGreaterThanOrEqual(2900);
    const ni = await t.client.get<NodeImage>({ ...NI, name: node });
    expect(ni.status).toMatchObject({ desired: 2, succeeded: 1, failed: 1 });
    await expect
      .poll(() => nodeImageEvents(node, 'PullImageFailed'), { timeout: 20_000 })
      .toEqual([
        expect.objectContaining({
          type: 'Warning',
          message: expect.stringMatching(/^Image nginx:broken-1 .*not found/),
        }),
      ]);
    const onOwner = (
      await t.client.list<CoreEvent & KubeObject>({ apiVersion: 'v1', kind: 'Event', namespace: 'default' })
    ).items.filter(
      (e) =>
        e.involvedObject.kind === 'CloneSet' &&
        e.involvedObject.name === owner.name &&
        e.reason === 'PullImageFailed',
    );
    expect(onOwner.length).toBeGreaterThan(0);
  });

  it('kill -9 of an agent mid-pull: a new agent ends every tag in a final state', async () => {
    t.sim.timings.imagePullMs = 6000;
    const node = nodes()[2]!;
    await setTags(node, 'nginx', [tagSpec('1.20'), tagSpec('1.21'), tagSpec('1.22')]);
    await expect
      .poll(async () => (await tagStatus(node, 'nginx', '1.21'))?.phase, { timeout: 30_000, interval: 200 })
      .toBe('Pulling');
    t.agent(node).killNow();
    t.sim.timings.imagePullMs = 1000;
    await t.startAgent(node, 'b');
    for (const tag of ['1.20', '1.21', '1.22']) {
      await expect
        .poll(async () => (await tagStatus(node, 'nginx', tag))?.phase, { timeout: 60_000, interval: 500 })
        .toBe('Succeeded');
    }
    const ni = await t.client.get<NodeImage>({ ...NI, name: node });
    expect(ni.status).toMatchObject({ desired: 3, succeeded: 3, failed: 0 });
  });
});
