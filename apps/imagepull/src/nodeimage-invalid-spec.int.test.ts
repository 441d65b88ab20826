// A NodeImage the webhook would refuse, stored with the webhooks off (docs/imagepull.md "Admission"; issue 18's R2,
// second half): the NodeImage controller writes no status and does not maintain its spec (the tag of an owner job
// that is gone stays), and says why with an InvalidSpec Warning naming the field; a valid NodeImage next to it gets
// its status and loses that tag. Both are fake NodeImages (no Node, no agent), as in imagepulljob-invalid-spec.
import { afterAll, describe, expect, it } from 'vitest';
import type { NodeImage } from '@regatta/api';
import type { CoreEvent, KubeObject } from '@regatta/kube';
import { useScenarioLayer } from '@regatta/testing';

const layer = useScenarioLayer({
  lease: 'niinv',
  short: 'niinv',
  scopeLabel: 'regatta-test-nodeimage-inv',
  env: { REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '0' },
  controller: { app: 'imagepull', webhooks: false },
});
const NODE_IMAGE = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' } as const;
const POLL = { timeout: 60_000, interval: 500 };
const names = { bad: `fake-${layer.id}-bad`, good: `fake-${layer.id}-good` };

afterAll(async () => {
  for (const name of Object.values(names))
    await layer.client.delete({ ...NODE_IMAGE, name }).catch(() => undefined);
});

const tag = (t: string) => ({
  tag: t,
  createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  pullPolicy: { ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3 },
});
/** A tag owned by an ImagePullJob that does not exist: the controller's spec maintenance drops it. */
const orphan = {
  tags: [
    {
      ...tag('1'),
      ownerReferences: [
        { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImagePullJob', namespace: 'default', name: 'gone', uid: '00000000-0000-4000-8000-000000000000' },
      ],
    },
  ],
};

describe('NodeImage that fails validation, stored without the webhooks', () => {
  it('is refused with an InvalidSpec event naming the field; no status, no spec maintenance; fixed, it is acted on', async () => {
    const c = layer.client;
    const create = (name: string, busyboxTags: unknown[]) =>
      c.create({
        ...NODE_IMAGE,
        metadata: { name, labels: { 'apps.kruise.io/fake-nodeimage': 'true', ...layer.scopeLabels } },
        spec: { images: { busybox: { tags: busyboxTags }, 'regatta-gone-owner': orphan } },
      } as KubeObject);
    // a duplicated tag: the webhook refuses it ("duplicated tag 1.37 for image busybox")
    await create(names.bad, [tag('1.37'), tag('1.37')]);
    await create(names.good, [tag('1.37')]);
    const get = (name: string) => c.get<NodeImage>({ ...NODE_IMAGE, name });

    await expect.poll(async () => (await get(names.good)).status?.desired, POLL).toBe(1);
    expect(Object.keys((await get(names.good)).spec?.images ?? {})).toEqual(['busybox']);
    const refusals = async () =>
      (await c.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event' })).items
        .filter((e) => e.involvedObject.name === names.bad && e.reason === 'InvalidSpec')
        .map((e) => `${e.type}: ${e.message}`);
    await expect
      .poll(refusals, POLL)
      .toContainEqual(
        expect.stringMatching(
          /^Warning: not acting on this NodeImage until it is fixed: spec\.images\[busybox\]\.tags\[1\]\.tag: .*duplicated tag 1\.37/,
        ),
      );
    const stored = await get(names.bad);
    expect(stored.status ?? {}).toEqual({});
    expect(Object.keys(stored.spec?.images ?? {}).sort()).toEqual(['busybox', 'regatta-gone-owner']);

    // fixed: acted on (the gone owner's tag dropped, the counts written)
    await c.patch({ ...NODE_IMAGE, name: names.bad }, { spec: { images: { busybox: { tags: [tag('1.37')] } } } }, { type: 'merge' });
    await expect.poll(async () => (await get(names.bad)).status?.desired, POLL).toBe(1);
    expect(Object.keys((await get(names.bad)).spec?.images ?? {})).toEqual(['busybox']);
  }, 200_000);
});
