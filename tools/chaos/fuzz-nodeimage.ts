// R2's generators for NodeImage (apps.kruise.io/v1beta1, cluster-scoped, one per node; docs/imagepull.md): a valid
// NodeImage as a user or a tool writes it (tags with their pull policy, sometimes `createdAt`, a version, pull
// secrets), labelled `apps.kruise.io/fake-nodeimage` so the NodeImage controller keeps it although no node has its
// name, and the same shapes of mutations as the other kinds: the rules of docs/imagepull.md "Admission" broken (more
// than 256 images, an empty or duplicated tag, no `pullPolicy` or no TTL, a negative version), huge annotations and
// sandbox labels, deep nesting, unicode, absurd numbers, wrong types. Each valid object also holds the image
// `regatta-gone-owner`, whose only tag is owned by an ImagePullJob that does not exist: the controller's spec
// maintenance drops it, which is how R2 sees an admitted NodeImage reconciled (its status is the agent's; a fake
// NodeImage has no agent; R2's agent nodes get these objects under their own names, tools/chaos/r2-agents.ts). Pure.
import fc from 'fast-check';
import {
  at,
  DEEP,
  type FuzzKind,
  HUGE,
  m,
  type Mutations,
  nested,
  type Obj,
  UNICODE,
} from './fuzz.js';

/** The image of every valid NodeImage whose tag's owner job is gone (the controller drops it). */
export const GONE_OWNER_IMAGE = 'regatta-gone-owner';
/** The image the mutations change (a key without dots, so `at` paths reach it). */
const IMAGE = 'busybox';
const TAGS = `spec.images.${IMAGE}.tags`;

export function validNodeImage(ns: string): fc.Arbitrary<Obj> {
  return fc
    .record({
      tags: fc.uniqueArray(fc.constantFrom('1.36', '1.37', 'latest', 'stable'), { minLength: 1, maxLength: 3 }),
      createdAt: fc.boolean(),
      version: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
      ttl: fc.integer({ min: 60, max: 86400 }),
      timeout: fc.option(fc.integer({ min: 30, max: 600 }), { nil: undefined }),
      imagePullPolicy: fc.option(fc.constantFrom('Always', 'IfNotPresent'), { nil: undefined }),
      secret: fc.boolean(),
    })
    .map(
      (r): Obj => ({
        apiVersion: 'apps.kruise.io/v1beta1',
        kind: 'NodeImage',
        metadata: { labels: { fuzz: 'r2', 'apps.kruise.io/fake-nodeimage': 'true', 'chaos.regatta.dev/ns': ns } },
        spec: {
          images: {
            [IMAGE]: {
              tags: r.tags.map((tag) => ({
                tag,
                ...(r.createdAt ? { createdAt: '2026-12-04T12:00:00Z' } : {}),
                ...(r.version !== undefined ? { version: r.version } : {}),
                pullPolicy: {
                  ttlSecondsAfterFinished: r.ttl,
                  ...(r.timeout !== undefined ? { timeoutSeconds: r.timeout, backoffLimit: 1 } : {}),
                },
                ...(r.imagePullPolicy ? { imagePullPolicy: r.imagePullPolicy } : {}),
              })),
              ...(r.secret ? { pullSecrets: [{ namespace: ns, name: 'chaos-none', mode: 'batch' }] } : {}),
            },
            [GONE_OWNER_IMAGE]: {
              tags: [
                {
                  tag: '1',
                  createdAt: '2026-12-04T12:00:00Z',
                  pullPolicy: { ttlSecondsAfterFinished: 300 },
                  ownerReferences: [
                    {
                      apiVersion: 'apps.kruise.io/v1beta1',
                      kind: 'ImagePullJob',
                      namespace: ns,
                      name: 'gone',
                      uid: '00000000-0000-4000-8000-000000000000',
                    },
                  ],
                },
              ],
            },
          },
        },
      }),
    );
}

/** `n` images of one tag each (`tags` tags: a large object), valid tags. */
const manyImages = (n: number, tags = 1): Obj =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `img-${i}`,
      {
        tags: Array.from({ length: tags }, (_, t) => ({
          tag: `t${t}`,
          createdAt: '2026-12-04T12:00:00Z',
          pullPolicy: { ttlSecondsAfterFinished: 300 },
        })),
      },
    ]),
  );

/** Adds `images` to the object's images (the gone-owner image stays, so a reconcile shows). */
const addImages = (o: Obj, images: Obj): void => {
  const spec = o['spec'] as Obj;
  spec['images'] = { ...(spec['images'] as Obj), ...images };
};

/** The mutated image's tags (the valid base has at least one). */
const tagsOf = (o: Obj): Obj[] => (((o['spec'] as Obj)['images'] as Obj)[IMAGE] as { tags: Obj[] }).tags;
const firstTag = (o: Obj): Obj => {
  const t = tagsOf(o)[0];
  if (!t) throw new Error('a valid NodeImage of the generator has a tag');
  return t;
};

const MUTATIONS: Mutations = {
  invalid: [
    fc.constant(at(`${TAGS}.0.tag`, '')),
    fc.constant(
      m('duplicated tag', (o) => {
        tagsOf(o).push(structuredClone(firstTag(o)));
      }),
    ),
    fc.constantFrom(-1, -100).map((v) => at(`${TAGS}.0.version`, v)),
    fc.constant(
      m('no pullPolicy', (o) => {
        delete firstTag(o)['pullPolicy'];
      }),
    ),
    fc.constant(at(`${TAGS}.0.pullPolicy`, { timeoutSeconds: 60, backoffLimit: 1 })),
    fc.integer({ min: 257, max: 400 }).map((n) =>
      m(`${n} images`, (o) => addImages(o, manyImages(n))),
    ),
    fc.constant(
      m('an image named ""', (o) => addImages(o, { '': { tags: [{ tag: '1', pullPolicy: { ttlSecondsAfterFinished: 60 } }] } })),
    ),
  ],
  'huge-annotations': [
    ...HUGE.slice(0, 3),
    fc
      .integer({ min: 100, max: 300 })
      .map((kib) => at(`spec.images.${IMAGE}.sandboxConfig`, { labels: { big: 's'.repeat(kib * 1024) } })),
    fc.integer({ min: 100, max: 256 }).map((n) =>
      m(`${n} images of 8 tags`, (o) => addImages(o, manyImages(n - 2, 8))),
    ),
  ],
  'deep-nesting': [
    fc.integer({ min: 20, max: 120 }).map((d) => at('spec.x-unknown', nested(d))),
    fc.integer({ min: 20, max: 120 }).map((d) => at(`spec.images.${IMAGE}.sandboxConfig.x-unknown`, nested(d))),
    fc
      .integer({ min: 20, max: 120 })
      .map((d) => at('metadata.annotations', { deep: JSON.stringify(nested(d)) })),
    ...DEEP.slice(2, 3),
  ],
  unicode: [
    ...UNICODE.slice(0, 2),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map((s) => at(`${TAGS}.0.tag`, s)),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map((s) =>
      m(`image name ${JSON.stringify(s)}`, (o) =>
        addImages(o, {
          [s]: { tags: [{ tag: '1', createdAt: '2026-12-04T12:00:00Z', pullPolicy: { ttlSecondsAfterFinished: 60 } }] },
        }),
      ),
    ),
  ],
  'absurd-numbers': [
    fc.constantFrom(2147483647, 9007199254740991, 1e18).map((n) => at(`${TAGS}.0.version`, n)),
    fc
      .constantFrom(2147483647, 1e12, -1)
      .map((n) => at(`${TAGS}.0.pullPolicy`, { ttlSecondsAfterFinished: 60, timeoutSeconds: n, backoffLimit: 3 })),
    fc.constantFrom(2147483647, -5, 0).map((n) => at(`${TAGS}.0.pullPolicy.ttlSecondsAfterFinished`, n)),
    fc
      .constantFrom(9007199254740991, 1e18, -1)
      .map((n) => at(`${TAGS}.0.pullPolicy.activeDeadlineSeconds`, n)),
    fc.constantFrom(2147483647, -1).map((n) => at(`${TAGS}.0.pullPolicy.backoffLimit`, n)),
  ],
  'wrong-types': [
    fc.constant(at(`spec.images.${IMAGE}.tags`, 'not a list')),
    fc.constant(at(`${TAGS}.0.tag`, 5)),
    fc.constantFrom('1', 'one', 1.5).map((v) => at(`${TAGS}.0.version`, v)),
    fc.constant(at(`${TAGS}.0.pullPolicy`, 'Always')),
    fc.constantFrom('yesterday', '', 12).map((v) => at(`${TAGS}.0.createdAt`, v)),
    fc.constant(at('spec.images', [])),
    fc.constant(at(`spec.images.${IMAGE}`, 'busybox:1.37')),
  ],
};

export const NODE_IMAGE: FuzzKind = {
  kind: 'NodeImage',
  valid: validNodeImage,
  rewrite: (p) => p,
  mutations: MUTATIONS,
};
