// An ImagePullJob the webhook would refuse, stored with the webhooks off (docs/imagepull.md "Admission"; issue 18's
// R2, second half): the reconciler adds no finalizer, writes no tag into any NodeImage and no status, and says why
// with an InvalidSpec Warning naming the field; a valid job next to it writes its tag. The NodeImage is a fake one
// (no Node, no agent), as in imagepulljob.int.test.ts.
import { KINDS } from '@regatta/api';
import { afterAll, describe, expect, it } from 'vitest';
import { bucketName, connectBus, objectKey, type Bus } from '@regatta/bus';
import type { ImagePullJob, NodeImage } from '@regatta/api';
import type { CoreEvent, KubeObject } from '@regatta/kube';
import { useScenarioLayer } from '@regatta/testing';

let bus: Bus | undefined;
const layer = useScenarioLayer({
  lease: 'ipinv',
  short: 'ipinv',
  scopeLabel: 'regatta-test-imagepull-inv',
  env: { REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '0', REGATTA_NODEIMAGE_RESPONSE_TIMEOUT_SECONDS: '30' },
  controller: { app: 'imagepull', webhooks: false },
  async start(l) {
    bus = await connectBus({
      servers: l.nats,
      name: `imagepull-inv-${l.id}`,
      prefix: l.env['REGATTA_BUS_PREFIX']!,
    });
  },
});
const JOB = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob' } as const;
const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const POLL = { timeout: 60_000, interval: 500 };
const node = `fake-${layer.id}-inv`;

afterAll(async () => {
  await bus?.close();
  await layer.client.delete({ ...NODE_IMAGE, name: node }).catch(() => undefined);
});

const holding = async (image: string) =>
  (await layer.client.list<NodeImage>(NODE_IMAGE)).items
    .filter((ni) => Object.keys(ni.spec?.images ?? {}).includes(image))
    .map((ni) => ni.metadata?.name ?? '');

describe('ImagePullJob that fails validation, stored without the webhooks', () => {
  it('is refused with an InvalidSpec event naming the field; no finalizer, no NodeImage written, no status', async () => {
    const c = layer.client;
    await c.create({
      ...NODE_IMAGE,
      metadata: { name: node, labels: { 'apps.kruise.io/fake-nodeimage': 'true', ...layer.scopeLabels } },
      spec: {},
    } as KubeObject);
    // the controller's cache must hold the NodeImage before the jobs are created (else the valid job finds no node)
    await expect
      .poll(async () => {
        const kv = await bus!.kvm.open(bus!.prefix + bucketName(KINDS.nodeimages)).catch(() => undefined);
        return (await kv?.get(objectKey(undefined, node)).catch(() => null))?.operation === 'PUT';
      }, POLL)
      .toBe(true);
    const ns = await layer.namespace();
    const bad = `regatta.test/bad-${layer.id}`;
    const good = `regatta.test/good-${layer.id}`;
    const job = (name: string, spec: Record<string, unknown>) =>
      c.create({ ...JOB, metadata: { name, namespace: ns }, spec } as KubeObject);
    // names and a label query together: the webhook refuses it
    await job('bad', {
      image: `${bad}:1`,
      selector: { names: [node], matchLabels: { any: 'x' } },
      completionPolicy: { type: 'Always' },
    });
    await job('good', {
      image: `${good}:1`,
      selector: { names: [node] },
      completionPolicy: { type: 'Always' },
    });

    await expect.poll(() => holding(good), POLL).toEqual([node]);
    const refusals = async () =>
      (await c.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: ns })).items
        .filter((e) => e.involvedObject.name === 'bad' && e.reason === 'InvalidSpec')
        .map((e) => `${e.type}: ${e.message}`);
    await expect
      .poll(refusals, POLL)
      .toContainEqual(
        expect.stringMatching(
          /^Warning: not acting on this ImagePullJob until it is fixed: spec\.selector: .*can not set both names and labelSelector/,
        ),
      );
    expect(await holding(bad)).toEqual([]);
    const stored = await c.get<ImagePullJob>({ ...JOB, namespace: ns, name: 'bad' });
    expect(stored.metadata?.finalizers ?? []).toEqual([]);
    expect(stored.status ?? {}).toEqual({});

    // fixed: acted on
    await c.patch(
      { ...JOB, namespace: ns, name: 'bad' },
      { spec: { selector: { matchLabels: null } } },
      { type: 'merge' },
    );
    await expect.poll(() => holding(bad), POLL).toEqual([node]);
    for (const name of ['bad', 'good']) await c.delete({ ...JOB, namespace: ns, name });
    await expect.poll(async () => (await c.list({ ...JOB, namespace: ns })).items.length, POLL).toBe(0);
  }, 200_000);
});
