// A NodeImage the webhook would refuse, stored with the webhooks absent (docs/imagepull.md "The node agent";
// docs/reliability-findings-1-16.md finding 7): the node's agent pulls nothing of it, not even its valid images, and writes no
// status for it; it logs the refusal at warn level with the field path, once per generation; a later generation
// that is still invalid is refused again; the fixed generation is pulled. No imagepull program runs in this file and
// the NodeImage carries no scope label, so no webhook applies to it (the scoped webhooks of other files' programs
// match their own labels only) and only the agent acts on it.
import { describe, expect, it } from 'vitest';
import { isAlreadyExists, isConflict, type CoreEvent, type KubeObject } from '@regatta/kube';
import { usePrivateNodes } from './testing/private-nodes.js';

interface NodeImage extends KubeObject {
  spec?: { images?: Record<string, { tags: Record<string, unknown>[] }> };
  status?: { desired: number; imageStatuses?: Record<string, { tags: { tag: string; phase: string }[] }> };
}
interface LogLine {
  level?: string;
  msg?: string;
  generation?: number;
  problem?: string;
}

const NI = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' };
const POLL = { timeout: 60_000, interval: 500 };
const t = usePrivateNodes({
  short: 'ipinv',
  nodes: 1,
  imagePullMs: 500,
  before: async (p) => {
    for (const node of p.nodes())
      await p.client.create({ ...NI, metadata: { name: node }, spec: {} }).catch((err: unknown) => {
        if (!isAlreadyExists(err)) throw err;
      });
  },
});

const tag = (name: string, extra: Record<string, unknown> = {}) => ({
  tag: name,
  version: 0,
  createdAt: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  imagePullPolicy: 'IfNotPresent',
  pullPolicy: { timeoutSeconds: 30, backoffLimit: 3, ttlSecondsAfterFinished: 600 },
  ...extra,
});

/** Replaces the NodeImage's images (the agent may write the status meanwhile: retried on conflict). */
async function setImages(
  node: string,
  images: Record<string, { tags: Record<string, unknown>[] }>,
): Promise<number> {
  for (let i = 0; ; i++) {
    const cur = await t.client.get<NodeImage>({ ...NI, name: node });
    try {
      const stored = await t.client.replace<NodeImage>({ ...cur, spec: { images } });
      return stored.metadata!.generation!;
    } catch (err) {
      if (i >= 10 || !isConflict(err)) throw err;
    }
  }
}

const refusals = (node: string): LogLine[] =>
  t
    .agentLog(node)
    .split('\n')
    .filter((l) => l.includes('not pulling this NodeImage'))
    .map((l) => JSON.parse(l) as LogLine);

/** What the agent did with the NodeImage: a tag status written, an image on the node, a pull event. */
async function acted(node: string): Promise<string[]> {
  const ni = await t.client.get<NodeImage>({ ...NI, name: node });
  const found = Object.entries(ni.status?.imageStatuses ?? {}).flatMap(([image, st]) =>
    st.tags.map((s) => `status ${image}:${s.tag} ${s.phase}`),
  );
  const n = await t.client.get<{ status?: { images?: { names: string[] }[] } } & KubeObject>({
    apiVersion: 'v1',
    kind: 'Node',
    name: node,
  });
  for (const name of n.status?.images?.flatMap((i) => i.names) ?? [])
    if (/\/(busybox|nginx):/.test(name)) found.push(`pulled ${name}`);
  const events = (await t.client.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event', namespace: 'default' }))
    .items;
  for (const e of events)
    if (
      e.involvedObject.kind === 'NodeImage' &&
      e.involvedObject.name === node &&
      e.reason.startsWith('PullImage')
    )
      found.push(`event ${e.reason}`);
  return found;
}

describe('image puller agent: a NodeImage that fails the NodeImage rules', () => {
  it('is not pulled and gets no status while invalid, with one warn line per generation; fixed, it is pulled', async () => {
    const node = t.nodes()[0]!;
    // generation after generation: a duplicated tag (next to a valid image), then a negative version
    const invalid = [
      {
        images: { busybox: { tags: [tag('1.37'), tag('1.37')] }, nginx: { tags: [tag('1.20')] } },
        field: /^spec\.images\[busybox\]\.tags\[1\]\.tag: .*duplicated tag 1\.37/,
      },
      {
        images: { busybox: { tags: [tag('1.37', { version: -1 })] }, nginx: { tags: [tag('1.20')] } },
        field: /^spec\.images\[busybox\]\.tags\[0\]\.version: /,
      },
    ];
    const generations: number[] = [];
    for (const bad of invalid) {
      const generation = await setImages(node, bad.images);
      generations.push(generation);
      // the agent has looked at this generation once it logged it; a pull would show first otherwise
      await expect
        .poll(
          async () =>
            refusals(node).some((l) => l.generation === generation) || (await acted(node)).length > 0,
          POLL,
        )
        .toBe(true);
      expect(await acted(node)).toEqual([]);
      expect(refusals(node).filter((l) => l.generation === generation)).toEqual([
        expect.objectContaining({ level: 'warn', problem: expect.stringMatching(bad.field) }),
      ]);
    }
    // a pull takes 0.5 s and its first status is written at once: none came while the spec was invalid
    await new Promise((r) => setTimeout(r, 2000));
    expect(await acted(node)).toEqual([]);
    expect(refusals(node).map((l) => l.generation)).toEqual(generations);

    // fixed: both images pulled, the status written
    await setImages(node, { busybox: { tags: [tag('1.37')] }, nginx: { tags: [tag('1.20')] } });
    await expect
      .poll(async () => (await acted(node)).filter((a) => a.startsWith('status')).sort(), POLL)
      .toEqual(['status busybox:1.37 Succeeded', 'status nginx:1.20 Succeeded']);
    expect(refusals(node).map((l) => l.generation)).toEqual(generations);
  }, 200_000);
});
