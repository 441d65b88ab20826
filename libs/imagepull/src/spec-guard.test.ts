import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { ImagePullJob, NodeImage } from '@regatta/api';
import { SpecGuard, refuseInvalidSpec } from '@regatta/kube';
import { nodeImageSpecProblem, specProblem } from './spec-guard.js';
import { job } from './testing/fixtures.js';

const spec = (j: ImagePullJob) => j.spec as unknown as Record<string, unknown>;

describe('specProblem: the admission rules, for what the API server stored without the webhooks', () => {
  it.each<[string, ImagePullJob, RegExp | undefined]>([
    ['a valid job', job(), undefined],
    [
      'not defaulted (no completion policy)',
      job((j) => delete (j.spec as Partial<ImagePullJob['spec']>).completionPolicy),
      undefined,
    ],
    ['an empty image', job((j) => (j.spec.image = '')), /^spec\.image: .*image can not be empty/],
    [
      'names and a label selector',
      job((j) => (spec(j)['selector'] = { names: ['n1'], matchLabels: { a: 'b' } })),
      /spec\.selector/,
    ],
    [
      'a percentage parallelism',
      job((j) => (spec(j)['parallelism'] = '50%')),
      /spec\.parallelism: .*percentage/,
    ],
    ['a negative parallelism', job((j) => (spec(j)['parallelism'] = -1)), /spec\.parallelism/],
    [
      'a deadline below the pull timeout',
      job((j) => (spec(j)['completionPolicy'] = { type: 'Always', activeDeadlineSeconds: 10 })),
      /activeDeadlineSeconds must be greater than pullPolicy\.timeoutSeconds/,
    ],
    ['a spec that is not an object', job((j) => ((j as unknown as { spec: unknown }).spec = 'x')), /./],
  ])('%s', (_name, obj, want) => {
    const got = specProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('is computed once per generation', () => {
    const guard = new SpecGuard(specProblem);
    const bad = job((j) => {
      j.spec.image = '';
      j.metadata!.generation = 1;
    });
    const first = guard.problem('default/job1', bad);
    expect(first).toBeDefined();
    expect(
      guard.problem(
        'default/job1',
        job((j) => (j.metadata!.generation = 1)),
      ),
    ).toBe(first);
    expect(
      guard.problem(
        'default/job1',
        job((j) => (j.metadata!.generation = 2)),
      ),
    ).toBeUndefined();
    guard.forget('default/job1');
    expect(guard.problem('default/job1', bad)).toBeDefined();
  });

  it('never throws, for any JSON in the spec or its fields (fast-check)', () => {
    const fields = [
      'spec',
      'selector',
      'podSelector',
      'parallelism',
      'completionPolicy',
      'pullPolicy',
      'image',
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue({ maxDepth: 4 }), (field, value) => {
        const j = job() as unknown as { spec: Record<string, unknown> };
        if (field === 'spec') j.spec = value as never;
        else j.spec[field] = value;
        expect(typeof (specProblem(j as unknown as ImagePullJob) ?? '')).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('the refusal: a Warning InvalidSpec naming the field, nothing to retry', () => {
    const warning = vi.fn(async () => undefined);
    const warn = vi.fn();
    const bad = job((j) => (j.spec.image = ''));
    expect(refuseInvalidSpec(bad, 'ImagePullJob', specProblem(bad)!, { warning }, { warn })).toEqual({});
    expect(warning).toHaveBeenCalledWith(
      bad,
      'InvalidSpec',
      expect.stringMatching(/^not acting on this ImagePullJob until it is fixed: spec\.image/),
    );
  });
});

const nodeImage = (images: unknown): NodeImage =>
  ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', metadata: { name: 'n1' }, spec: { images } }) as NodeImage;
const tag = (t: Record<string, unknown> = {}) => ({ tag: '1.37', pullPolicy: { ttlSecondsAfterFinished: 300 }, ...t });

describe('nodeImageSpecProblem: the NodeImage rules, for what the API server stored without the webhooks', () => {
  it.each<[string, NodeImage, RegExp | undefined]>([
    ['a valid NodeImage', nodeImage({ busybox: { tags: [tag()] } }), undefined],
    ['no spec', { metadata: { name: 'n1' } } as NodeImage, undefined],
    // the webhook gives a tag its createdAt; the controller drops a stored tag without one (nodeimage-spec.ts)
    ['a tag without createdAt', nodeImage({ busybox: { tags: [tag({ createdAt: undefined })] } }), undefined],
    ['an empty tag', nodeImage({ busybox: { tags: [tag({ tag: '' })] } }), /^spec\.images\[busybox\]\.tags\[0\]\.tag: .*can not be empty/],
    ['a duplicated tag', nodeImage({ busybox: { tags: [tag(), tag()] } }), /spec\.images\[busybox\]\.tags\[1\]\.tag: .*duplicated tag 1\.37/],
    ['no TTL', nodeImage({ busybox: { tags: [tag({ pullPolicy: { timeoutSeconds: 60 } })] } }), /pullPolicy\.ttlSecondsAfterFinished: .*must set/],
    ['a negative version', nodeImage({ busybox: { tags: [tag({ version: -1 })] } }), /\.version: .*can not be less than 0/],
    [
      '257 images',
      nodeImage(Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`i${i}`, { tags: [tag()] }]))),
      /^spec\.images: .*257 can not be more than 256/,
    ],
    ['a string pullPolicy (the defaulting leaves it)', nodeImage({ busybox: { tags: [tag({ pullPolicy: 'Always' })] } }), /pullPolicy: .*must set/],
  ])('%s', (_name, obj, want) => {
    const got = nodeImageSpecProblem(obj);
    if (want === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(want);
  });

  it('never throws, for any JSON in its images (fast-check)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 3 }), (images, t) => {
        expect(typeof (nodeImageSpecProblem(nodeImage(images)) ?? '')).toBe('string');
        expect(typeof (nodeImageSpecProblem(nodeImage({ a: { tags: [t] } })) ?? '')).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('the refusal: a Warning InvalidSpec naming the field, nothing to retry', () => {
    const warning = vi.fn(async () => undefined);
    const warn = vi.fn();
    const bad = nodeImage({ busybox: { tags: [tag(), tag()] } });
    expect(refuseInvalidSpec(bad, 'NodeImage', nodeImageSpecProblem(bad)!, { warning }, { warn })).toEqual({});
    expect(warning).toHaveBeenCalledWith(
      bad,
      'InvalidSpec',
      expect.stringMatching(/^not acting on this NodeImage until it is fixed: spec\.images\[busybox\]\.tags\[1\]\.tag/),
    );
  });
});
