// A NodeImage with no room for one more tag (docs/reliability.md finding 23): the ImagePullJob controller leaves that
// node out with a NodeImageFull Warning instead of retrying a write etcd refuses, gives the tag to the next node in
// its place (parallelism 1), and tags the full node once it has room again. The NodeImages are fake ones (no Node,
// no agent), as in imagepulljob.int.test.ts.
import { KINDS } from '@regatta/api';
import { afterAll, describe, expect, it } from 'vitest';
import { bucketName, connectBus, objectKey, type Bus } from '@regatta/bus';
import type { ImagePullJob, NodeImage } from '@regatta/api';
import type { CoreEvent, KubeObject } from '@regatta/kube';
import { useScenarioLayer } from '@regatta/testing';

let bus: Bus | undefined;
const layer = useScenarioLayer({
  lease: 'ipfull',
  short: 'ipfull',
  scopeLabel: 'regatta-test-imagepull-full',
  env: { REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '0', REGATTA_NODEIMAGE_RESPONSE_TIMEOUT_SECONDS: '30' },
  controller: { app: 'imagepull', webhooks: false },
  async start(l) {
    bus = await connectBus({ servers: l.nats, name: `imagepull-full-${l.id}`, prefix: l.env['REGATTA_BUS_PREFIX']! });
  },
});
const JOB = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob' } as const;
const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
// the controller retries a full node after 60 s (libs/imagepull nodeimage-room.ts)
const POLL = { timeout: 120_000, interval: 500 };
const full = `fake-${layer.id}-a-full`;
const roomy = `fake-${layer.id}-b-roomy`;
const filler = 'regatta.test/filler';

afterAll(async () => {
  await bus?.close();
  for (const name of [full, roomy]) await layer.client.delete({ ...NODE_IMAGE, name }).catch(() => undefined);
});

const holding = async (image: string) =>
  (await layer.client.list<NodeImage>(NODE_IMAGE)).items
    .filter((ni) => Object.keys(ni.spec?.images ?? {}).includes(image))
    .map((ni) => ni.metadata?.name ?? '')
    .sort();

describe('ImagePullJob and a NodeImage with no room for its tag', () => {
  it('leaves the node out with a NodeImageFull event, tags the next one, and the full one once it has room', async () => {
    const c = layer.client;
    const labels = { 'apps.kruise.io/fake-nodeimage': 'true', ...layer.scopeLabels };
    // about 1 030 KB of JSON (under 1 MiB): the job's 30 KB sandboxConfig takes it past the 1 MiB the controller writes
    const fillerImage = {
      sandboxConfig: { annotations: { fill: 'x'.repeat(1_030_000) } },
      tags: [{ tag: '1', createdAt: new Date().toISOString(), version: 0, pullPolicy: { ttlSecondsAfterFinished: 86_400 } }],
    };
    await c.create({ ...NODE_IMAGE, metadata: { name: full, labels }, spec: { images: { [filler]: fillerImage } } } as KubeObject);
    await c.create({ ...NODE_IMAGE, metadata: { name: roomy, labels }, spec: {} } as KubeObject);
    // the controller's cache must hold both NodeImages before the job is created
    await expect
      .poll(async () => {
        const kv = await bus!.kvm.open(bus!.prefix + bucketName(KINDS.nodeimages)).catch(() => undefined);
        const stored = await Promise.all([full, roomy].map((n) => kv?.get(objectKey(undefined, n)).catch(() => null)));
        return stored.every((e) => e?.operation === 'PUT');
      }, POLL)
      .toBe(true);

    const ns = await layer.namespace();
    const image = `regatta.test/full-${layer.id}`;
    await c.create({
      ...JOB,
      metadata: { name: 'job', namespace: ns },
      spec: {
        image: `${image}:1`,
        parallelism: 1,
        selector: { names: [full, roomy] },
        sandboxConfig: { labels: { big: 'y'.repeat(30_000) } },
        completionPolicy: { type: 'Always' },
      },
    } as KubeObject);

    // the full node (first by name) is left out and the roomy one takes its place
    await expect.poll(() => holding(image), POLL).toEqual([roomy]);
    const warnings = async () =>
      (await c.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items
        .filter((e) => e.involvedObject.name === 'job' && e.reason === 'NodeImageFull')
        .map((e) => `${e.type}: ${e.message}`);
    await expect
      .poll(warnings, POLL)
      .toContainEqual(
        expect.stringMatching(
          new RegExp(`^Warning: not pulling ${image}:1 on node ${full} for now: it would grow to \\d+ KiB, past the 1024 KiB`),
        ),
      );
    const stored = await c.get<NodeImage>({ ...NODE_IMAGE, name: full });
    expect(Object.keys(stored.spec?.images ?? {})).toEqual([filler]);
    const job = await c.get<ImagePullJob>({ ...JOB, namespace: ns, name: 'job' });
    expect(job.status?.desired).toBe(2);

    // room again: the filler image goes, and the job tags the node on its next try
    await c.patch({ ...NODE_IMAGE, name: full }, { spec: { images: { [filler]: null } } }, { type: 'merge' });
    await expect.poll(() => holding(image), POLL).toEqual([full, roomy]);
    await c.delete({ ...JOB, namespace: ns, name: 'job' });
    await expect.poll(async () => (await c.list({ ...JOB, namespace: ns })).items.length, POLL).toBe(0);
  }, 300_000);
});
