import { describe, expect, it } from 'vitest';
import type { ImagePullJob, NodeImage } from '@regatta/api';
import {
  ImagePullJobRejections,
  defaultImagePullJob,
  defaultNodeImage,
  validateImagePullJob,
  validateImagePullJobUpdate,
  validateNodeImage,
} from './admission.js';
import { normalizeImageRef } from './image-ref.js';

const base = (spec: Record<string, unknown> = {}): ImagePullJob =>
  defaultImagePullJob(
    { metadata: { name: 'j', namespace: 'default' }, spec: { image: 'nginx:1.9.1', completionPolicy: {}, ...spec } } as ImagePullJob,
    { create: true },
  );
const details = (spec: Record<string, unknown>) => validateImagePullJob(base(spec)).map((e) => `${e.field}: ${e.detail}`);

describe('ImagePullJob defaults', () => {
  it('completionPolicy Always, pullPolicy 600/3, imagePullPolicy IfNotPresent, the finalizer on create', () => {
    const j = base();
    expect(j.spec).toMatchObject({
      completionPolicy: { type: 'Always' },
      pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 },
      imagePullPolicy: 'IfNotPresent',
    });
    expect(j.metadata?.finalizers).toEqual(['apps.kruise.io/deletion-protection']);
    expect(defaultImagePullJob({ spec: { image: 'x', completionPolicy: {} } } as ImagePullJob, { create: false }).metadata).toBeUndefined();
  });

  // the webhook answered 500 on these (reliability finding 5); the CRD schema refuses them with their field path
  it.each([
    ['a string completionPolicy', { spec: { image: 'x', completionPolicy: 'Always' } }, ['spec', 'completionPolicy'], 'Always'],
    ['a number pullPolicy', { spec: { image: 'x', pullPolicy: 5 } }, ['spec', 'pullPolicy'], 5],
    ['an array spec', { spec: [1] }, ['spec'], [1]],
    ['a null completionPolicy', { spec: { image: 'x', completionPolicy: null } }, ['spec', 'completionPolicy'], { type: 'Always' }],
    ['string finalizers', { metadata: { finalizers: 'f' }, spec: {} }, ['metadata', 'finalizers'], 'f'],
  ])('leaves %s as it is, defaulting the rest, without throwing', (_, job, path, want) => {
    const out = defaultImagePullJob(job as unknown as ImagePullJob, { create: true }) as unknown as Record<string, unknown>;
    expect(path.reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], out)).toEqual(want);
  });
});

describe('ImagePullJob validation (§8.7 webhook table)', () => {
  it.each([5, 0, '5', '0', undefined])('parallelism %s is valid', (p) => {
    expect(details(p === undefined ? {} : { parallelism: p })).toEqual([]);
  });
  it.each([
    [-1, ImagePullJobRejections.parallelismNegative],
    ['-1', ImagePullJobRejections.parallelismNegative],
    ['50%', ImagePullJobRejections.parallelismPercent],
    ['abc', ImagePullJobRejections.parallelismInteger],
  ])('parallelism %s is rejected', (p, reason) => {
    expect(details({ parallelism: p })).toEqual([`spec.parallelism: ${reason}`]);
  });

  it("the seed's job (names and matchLabels together) is rejected with OpenKruise's reason", () => {
    const seed = {
      parallelism: 10,
      selector: { names: ['node1', 'node2'], matchLabels: { 'node-type': 'xxx' } },
      completionPolicy: { type: 'Always', activeDeadlineSeconds: 1200, ttlSecondsAfterFinished: 300 },
      pullPolicy: { backoffLimit: 3, timeoutSeconds: 300 },
      pullSecrets: ['secret-name1', 'secret-name2'],
    };
    expect(details(seed)).toEqual(['spec.selector: can not set both names and labelSelector in this spec.selector']);
    expect(details({ ...seed, selector: { names: ['node1', 'node2'] } })).toEqual([]);
  });

  it.each([
    [{ selector: { names: ['a', 'a'] } }, 'spec.selector.names[1]: duplicated name in selector names'],
    [{ selector: {}, podSelector: { matchLabels: { a: 'b' } } }, 'spec.podSelector: can not set both selector and podSelector'],
    [{ image: '' }, 'spec.image: image can not be empty'],
    [{ image: 'invalid image reference!!!' }, 'spec.image: invalid image invalid image reference!!!'],
    [
      { completionPolicy: { type: 'Always', activeDeadlineSeconds: 100 } },
      `spec.completionPolicy.activeDeadlineSeconds: ${ImagePullJobRejections.deadlineBelowTimeout}`,
    ],
    [
      { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } },
      `spec.completionPolicy.ttlSecondsAfterFinished: ${ImagePullJobRejections.alwaysOnly}`,
    ],
    [{ completionPolicy: { type: 'Sometimes' } }, 'spec.completionPolicy.type: unknown type of completionPolicy: Sometimes'],
    [{ selector: { matchLabels: { 'bad key!': 'x' } } }, 'spec.selector.matchLabels'],
  ])('%j is rejected', (spec, want) => {
    const got = details(spec);
    expect(got.length).toBeGreaterThan(0);
    expect(got[0]!.startsWith(want)).toBe(true);
  });

  it('never throws on any JSON', () => {
    for (const v of [null, 1, 'x', [], {}, { spec: null }, { spec: { selector: 'x', parallelism: {} } }])
      expect(() => validateImagePullJob(v)).not.toThrow();
  });

  it('pullSecrets: unchanged or both unset allowed on update; changed, added or removed denied', () => {
    const withSecrets = (s?: string[]) => base(s ? { pullSecrets: s } : {});
    expect(validateImagePullJob(withSecrets(['a']))).toEqual([]);
    expect(validateImagePullJobUpdate(withSecrets(['a']), withSecrets(['a']))).toEqual([]);
    expect(validateImagePullJobUpdate(withSecrets(), withSecrets())).toEqual([]);
    const cases: [string[] | undefined, string[]][] = [
      [['b'], ['a']],
      [['a', 'b'], ['a']],
      [undefined, ['a']],
    ];
    for (const [now, old] of cases) {
      expect(validateImagePullJobUpdate(withSecrets(now), withSecrets(old))).toEqual([
        { type: 'FieldValueForbidden', field: 'spec.pullSecrets', detail: 'spec.pullSecrets is immutable' },
      ]);
    }
  });
});

describe('NodeImage admission', () => {
  const seed = {
    metadata: { name: 'node1' },
    spec: { images: { ubuntu: { tags: [{ tag: 'latest', pullPolicy: { ttlSecondsAfterFinished: 300, activeDeadlineSeconds: 1200 } }] } } },
  };
  it("defaults the seed's tag (createdAt, timeout 600, backoff 3, not the TTL) and it validates", () => {
    const out = defaultNodeImage(seed as NodeImage, new Date('2025-01-01T00:00:00.123Z'));
    expect(out.spec!.images!['ubuntu']!.tags[0]).toEqual({
      tag: 'latest',
      createdAt: '2025-01-01T00:00:00Z',
      pullPolicy: { ttlSecondsAfterFinished: 300, activeDeadlineSeconds: 1200, timeoutSeconds: 600, backoffLimit: 3 },
    });
    expect(validateNodeImage(out)).toEqual([]);
  });
  it('sorts tags by name', () => {
    const out = defaultNodeImage({ spec: { images: { a: { tags: [{ tag: 'b' }, { tag: 'a' }] } } } } as NodeImage, new Date());
    expect(out.spec!.images!['a']!.tags.map((t) => t.tag)).toEqual(['a', 'b']);
  });
  it.each([
    [{ tags: [{ tag: '', createdAt: 't', pullPolicy: { ttlSecondsAfterFinished: 1 } }] }, 'tag for image ubuntu can not be empty'],
    [{ tags: [{ tag: 'x', createdAt: 't', pullPolicy: { ttlSecondsAfterFinished: 1 } }, { tag: 'x', createdAt: 't', pullPolicy: { ttlSecondsAfterFinished: 1 } }] }, 'duplicated tag x for image ubuntu'],
    [{ tags: [{ tag: 'x', pullPolicy: { ttlSecondsAfterFinished: 1 } }] }, 'createAt field for ubuntu/x can not be empty'],
    [{ tags: [{ tag: 'x', createdAt: 't', version: -1, pullPolicy: { ttlSecondsAfterFinished: 1 } }] }, 'version for ubuntu/x can not be less than 0'],
    [{ tags: [{ tag: 'x', createdAt: 't' }] }, 'pullPolicy field for ubuntu/x must set'],
    [{ tags: [{ tag: 'x', createdAt: 't', pullPolicy: {} }] }, 'pullPolicy.ttlSecondsAfterFinished for ubuntu/x must set'],
  ])('%j → %s', (image, detail) => {
    expect(validateNodeImage({ spec: { images: { ubuntu: image } } }).map((e) => e.detail)).toEqual([detail]);
  });
  // the webhook answered 500 on these (R2, reliability finding 6); the CRD schema refuses them with their field path
  it.each([
    ['a string tags', { a: { tags: 'not a list' } }, ['a', 'tags'], 'not a list'],
    ['a number tag', { a: { tags: [5, { tag: 'b' }] } }, ['a', 'tags', 0], 5],
    ['a string pullPolicy', { a: { tags: [{ tag: 'b', pullPolicy: 'Always' }] } }, ['a', 'tags', 0, 'pullPolicy'], 'Always'],
    ['a string image', { a: 'busybox:1.37' }, ['a'], 'busybox:1.37'],
  ])('leaves %s as it is, defaulting the rest, without throwing', (_, images, path, want) => {
    const out = defaultNodeImage({ spec: { images } } as unknown as NodeImage, new Date(0));
    expect(path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], out.spec!.images)).toEqual(want);
  });
  it('defaults the other tags of an image with a wrong-typed one', () => {
    const out = defaultNodeImage({ spec: { images: { a: { tags: [5, { tag: 'b' }] } } } } as unknown as NodeImage, new Date(0));
    expect(out.spec!.images!['a']!.tags[1]).toMatchObject({ tag: 'b', createdAt: '1970-01-01T00:00:00Z' });
  });
  it('at most 256 images', () => {
    const images = Object.fromEntries(Array.from({ length: 257 }, (_, i) => [`i${i}`, { tags: [] }]));
    expect(validateNodeImage({ spec: { images } })[0]!.detail).toBe('spec images length 257 can not be more than 256');
  });
});

describe('normalizeImageRef', () => {
  it.each([
    ['nginx:1.20', 'nginx', '1.20'],
    ['nginx', 'nginx', 'latest'],
    ['docker.io/library/nginx:1.9.1', 'nginx', '1.9.1'],
    ['docker.io/foo/bar:1', 'foo/bar', '1'],
    ['registry.example.com:5000/team/app:v2', 'registry.example.com:5000/team/app', 'v2'],
    [`nginx@sha256:${'a'.repeat(64)}`, 'nginx', `sha256:${'a'.repeat(64)}`],
    [`nginx:1.20@sha256:${'b'.repeat(64)}`, 'nginx', `sha256:${'b'.repeat(64)}`],
  ])('%s → %s %s', (image, name, tag) => {
    expect(normalizeImageRef(image)).toEqual({ name, tag });
  });
  it.each(['', 'invalid image reference!!!', 'UPPER/case:1'])('%j is invalid', (image) => {
    expect(normalizeImageRef(image)).toBeUndefined();
  });
});
