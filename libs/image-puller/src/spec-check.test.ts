import { describe, expect, it } from 'vitest';
import { decideOnSpec, nodeImageProblem, specGenerationOf, type SpecGeneration } from './spec-check.js';
import type { ImageSpec, NodeImage } from './types.js';

const gen = (generation: number, uid = 'u1'): SpecGeneration => ({ uid, generation });
const BAD =
  'spec.images[busybox].tags[1].tag: Duplicate value: "1.37": duplicated tag 1.37 for image busybox';

describe('decideOnSpec: the agent pulls a valid NodeImage, refuses an invalid one and logs it once per generation', () => {
  // each row: the looks at the NodeImage in order, as (generation, problem), and what each decides
  it.each<[string, [SpecGeneration, string | undefined][], { pull: boolean; warn?: string }[]]>([
    [
      'valid: pulled, nothing logged',
      [
        [gen(1), undefined],
        [gen(1), undefined],
      ],
      [{ pull: true }, { pull: true }],
    ],
    [
      'invalid: not pulled, logged on the first look at the generation only',
      [
        [gen(1), BAD],
        [gen(1), BAD],
        [gen(1), BAD],
      ],
      [{ pull: false, warn: BAD }, { pull: false }, { pull: false }],
    ],
    [
      'still invalid at a new generation: logged again',
      [
        [gen(1), BAD],
        [gen(2), 'spec.images[busybox].tags[0].version: …'],
        [gen(2), 'spec.images[busybox].tags[0].version: …'],
      ],
      [
        { pull: false, warn: BAD },
        { pull: false, warn: 'spec.images[busybox].tags[0].version: …' },
        { pull: false },
      ],
    ],
    [
      'fixed at a new generation: pulled again',
      [
        [gen(1), BAD],
        [gen(2), undefined],
        [gen(2), undefined],
      ],
      [{ pull: false, warn: BAD }, { pull: true }, { pull: true }],
    ],
    [
      'invalid, fixed, invalid again: each invalid generation logged',
      [
        [gen(1), BAD],
        [gen(2), undefined],
        [gen(3), BAD],
      ],
      [{ pull: false, warn: BAD }, { pull: true }, { pull: false, warn: BAD }],
    ],
    [
      'deleted and created again at the same generation (a new uid): logged again',
      [
        [gen(1, 'u1'), BAD],
        [gen(1, 'u2'), BAD],
      ],
      [
        { pull: false, warn: BAD },
        { pull: false, warn: BAD },
      ],
    ],
  ])('%s', (_name, looks, want) => {
    let warned: SpecGeneration | undefined;
    const got = looks.map(([g, problem]) => {
      const d = decideOnSpec(g, problem, warned);
      warned = d.warned;
      return { pull: d.pull, ...(d.warn !== undefined ? { warn: d.warn } : {}) };
    });
    expect(got).toEqual(want);
  });
});

const tag = (t: Record<string, unknown> = {}) => ({
  tag: '1.37',
  createdAt: '2026-12-04T00:00:00Z',
  pullPolicy: { timeoutSeconds: 600, backoffLimit: 3, ttlSecondsAfterFinished: 300 },
  ...t,
});
const nodeImage = (images: Record<string, unknown>): NodeImage => ({
  metadata: { name: 'n1', uid: 'u1', generation: 4 },
  spec: { images: images as Record<string, ImageSpec> },
});

describe('the NodeImage rules on the agent’s NodeImage (libs/imagepull nodeImageSpecProblem): what the agent refuses', () => {
  it.each<[string, NodeImage, RegExp | undefined]>([
    [
      'a valid NodeImage',
      nodeImage({ busybox: { tags: [tag()] }, nginx: { tags: [tag({ tag: '1.20', version: 2 })] } }),
      undefined,
    ],
    ['no spec', { metadata: { name: 'n1' } }, undefined],
    [
      'an empty tag',
      nodeImage({ busybox: { tags: [tag({ tag: '' })] } }),
      /^spec\.images\[busybox\]\.tags\[0\]\.tag: /,
    ],
    [
      'a duplicated tag',
      nodeImage({ busybox: { tags: [tag(), tag()] } }),
      /^spec\.images\[busybox\]\.tags\[1\]\.tag: .*duplicated tag 1\.37/,
    ],
    [
      'an image named ""',
      nodeImage({ '': { tags: [tag()] } }),
      /^spec\.images\[\]: .*image name can not be empty/,
    ],
    [
      '257 images',
      nodeImage(Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`i${i}`, { tags: [tag()] }]))),
      /^spec\.images: .*257 can not be more than 256/,
    ],
    [
      'a negative version',
      nodeImage({ busybox: { tags: [tag({ version: -1 })] } }),
      /^spec\.images\[busybox\]\.tags\[0\]\.version: /,
    ],
    [
      'a tag without a TTL',
      nodeImage({ busybox: { tags: [tag({ pullPolicy: { timeoutSeconds: 60 } })] } }),
      /ttlSecondsAfterFinished: /,
    ],
    [
      'one invalid image next to a valid one: the whole NodeImage is refused',
      nodeImage({ nginx: { tags: [tag({ tag: '1.20' })] }, busybox: { tags: [tag({ tag: '' })] } }),
      /^spec\.images\[busybox\]/,
    ],
  ])('%s', (_name, ni, want) => {
    const problem = nodeImageProblem(ni);
    const d = decideOnSpec(specGenerationOf(ni), problem, undefined);
    if (want === undefined) {
      expect(problem).toBeUndefined();
      expect(d.pull).toBe(true);
    } else {
      expect(d).toMatchObject({ pull: false, warn: expect.stringMatching(want) });
    }
  });
});
