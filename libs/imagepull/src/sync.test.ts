import { describe, expect, it } from 'vitest';
import {
  activeDeadlineSecondsForNever,
  parallelismOf,
  nextImageEntry,
  syncBudget,
  tagPullPolicy,
  ttlSecondsForAlways,
  type TagPolicyOptions,
} from './sync.js';
import { foldTagChanges } from './nodeimage-writes.js';
import { job, nodeImage, owner } from './testing/fixtures.js';
import type { ImagePullJob, NodeImage, ReferenceObject } from '@regatta/api';

/** The NodeImage with the job's tag and secrets written (nodeimage-writes.ts), or undefined when nothing changes. */
const syncJobIntoNodeImage = (ni: NodeImage, j: ImagePullJob, secrets: ReferenceObject[], at: Date, o: TagPolicyOptions) =>
  foldTagChanges(ni, [(x) => nextImageEntry(x, j, secrets, at, o)]).next;

const now = new Date('2025-01-01T01:00:00Z');
const ref = (name: string) => ({ namespace: 'kruise-daemon-config', name, mode: 'batch' });
const A = ref('A');
const B = ref('B');
const zero = { random: () => 0 };

describe('syncNodeImages (§8.7, job UID job-uid-1, tag 1.20)', () => {
  it.each([
    { name: 'no image', ni: nodeImage('n'), secrets: [A], update: true, version: 0, owners: 1, pullSecrets: [A] },
    { name: 'tag v1 owned, [A]', ni: nodeImage('n', { tag: '1.20', version: 1, secrets: [A] }), secrets: [A], update: false },
    { name: 'tag v1 owned, no secrets', ni: nodeImage('n', { tag: '1.20', version: 1 }), secrets: [A], update: true, version: 1, owners: 1, pullSecrets: [A] },
    { name: 'tag v1 owned, [A] + B', ni: nodeImage('n', { tag: '1.20', version: 1, secrets: [A] }), secrets: [A, B], update: true, version: 1, owners: 1, pullSecrets: [A, B] },
    {
      name: 'tag v3 owned by another job, [A]',
      ni: nodeImage('n', { tag: '1.20', version: 3, owners: [owner('other', 'job2')], secrets: [A] }),
      secrets: [B],
      update: true,
      version: 4,
      owners: 2,
      pullSecrets: [A, B],
    },
    { name: 'tag v1 owned, no secrets wanted', ni: nodeImage('n', { tag: '1.20', version: 1 }), secrets: [], update: false },
    {
      name: 'no tag in spec, status has tag v5',
      ni: { ...nodeImage('n'), status: { desired: 0, imageStatuses: { nginx: { tags: [{ tag: '1.20', phase: 'Succeeded', version: 5 }] } } } },
      secrets: [],
      update: true,
      version: 6,
      owners: 1,
      pullSecrets: undefined,
    },
  ])('$name', (c) => {
    const out = syncJobIntoNodeImage(c.ni, job(), c.secrets, now, zero);
    if (!c.update) {
      expect(out).toBeUndefined();
      return;
    }
    const image = out!.spec!.images!['nginx']!;
    const tag = image.tags.find((t) => t.tag === '1.20')!;
    expect(tag.version).toBe(c.version);
    expect(tag.ownerReferences).toHaveLength(c.owners!);
    expect(image.pullSecrets).toEqual(c.pullSecrets);
  });

  it('a new tag carries the pull policy, createdAt, the imagePullPolicy and the sandbox config; tags sorted', () => {
    const j = job((x) => {
      x.spec.image = 'docker.io/library/nginx:1.20';
      x.spec.imagePullPolicy = 'Always';
      x.spec.sandboxConfig = { labels: { a: 'b' } };
      x.spec.pullPolicy = { timeoutSeconds: 50, backoffLimit: 2 };
    });
    const out = syncJobIntoNodeImage(nodeImage('n', { tag: '1.3', owners: [owner('x')] }), j, [], now, zero)!;
    const image = out.spec!.images!['nginx']!;
    expect(image.tags.map((t) => t.tag)).toEqual(['1.20', '1.3']);
    expect(image.sandboxConfig).toEqual({ labels: { a: 'b' } });
    expect(image.tags[0]).toMatchObject({
      createdAt: '2025-01-01T01:00:00Z',
      imagePullPolicy: 'Always',
      pullPolicy: { timeoutSeconds: 50, backoffLimit: 2, ttlSecondsAfterFinished: 50 * 2 + 300 },
      ownerReferences: [owner()],
    });
  });
});

describe('tag pull policy', () => {
  it.each([
    [undefined, 1800],
    [1799, 1800],
    [7200, 7200],
  ])('getActiveDeadlineSecondsForNever: timeout %s → %s', (timeout, want) => {
    const j = job((x) => (x.spec.pullPolicy = timeout === undefined ? {} : { timeoutSeconds: timeout }));
    expect(activeDeadlineSecondsForNever(j)).toBe(want);
  });

  it('Never: TTL a day ± 10 min, deadline max(1800, timeout); Always: ttl, else deadline, else timeout×backoff, + 300 + [0,300)', () => {
    const never = job((x) => (x.spec.completionPolicy = { type: 'Never' }));
    expect(tagPullPolicy(never, { random: () => 0 })).toEqual({ ttlSecondsAfterFinished: 86400 - 600, activeDeadlineSeconds: 1800 });
    expect(tagPullPolicy(never, { random: (n) => n - 1 }).ttlSecondsAfterFinished).toBe(86400 + 599);
    expect(tagPullPolicy(never, { ttlSecondsForNever: 5 }).ttlSecondsAfterFinished).toBe(5);
    expect(ttlSecondsForAlways(job(), zero)).toBe(1800 + 300);
    expect(ttlSecondsForAlways(job((x) => (x.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 900 })), zero)).toBe(1200);
    expect(
      ttlSecondsForAlways(job((x) => (x.spec.completionPolicy = { type: 'Always', activeDeadlineSeconds: 900, ttlSecondsAfterFinished: 20 })), {
        random: () => 7,
        defaultTtlSecondsForAlways: 0,
      }),
    ).toBe(27);
  });

  // run BL, finding 21: an int64 deadline is admitted at any size; the tag's TTL is an int32
  it.each([
    ['activeDeadlineSeconds 2^53 − 1', { type: 'Always', activeDeadlineSeconds: 9007199254740991 }],
    ['ttlSecondsAfterFinished at the int32 bound', { type: 'Always', ttlSecondsAfterFinished: 2147483647 }],
  ] as const)('Always, %s: the TTL stays within int32', (_, completionPolicy) => {
    const j = job((x) => (x.spec.completionPolicy = { ...completionPolicy }));
    expect(ttlSecondsForAlways(j, { random: (n) => n - 1 })).toBe(2147483647);
    expect(tagPullPolicy(j, { random: () => 0 }).ttlSecondsAfterFinished).toBe(2147483647);
  });
});

describe('parallelism', () => {
  it.each([
    [undefined, 1],
    [4, 4],
    ['5', 5],
    [0, 0],
  ])('parallelism %s → %s', (p, want) => {
    expect(parallelismOf(job((x) => p !== undefined && (x.spec.parallelism = p)))).toBe(want);
  });

  it('budget = parallelism − active, at most the not-synced nodes, never negative', () => {
    const j = job((x) => (x.spec.parallelism = 4));
    expect(syncBudget(j, 1, 10)).toBe(3);
    expect(syncBudget(j, 0, 2)).toBe(2);
    expect(syncBudget(j, 5, 10)).toBe(0);
    expect(syncBudget(job((x) => (x.spec.parallelism = 0)), 0, 3)).toBe(0);
  });
});

describe('an ImagePullJob for an image named constructor (docs/reliability.md finding 24)', () => {
  it('puts a tag of its own under that name and leaves Object.prototype alone', () => {
    const j = job((x) => (x.spec.image = 'constructor:1'));
    const out = syncJobIntoNodeImage(nodeImage('n'), j, [], now, zero)!;
    expect(Object.hasOwn(out.spec!.images!, 'constructor')).toBe(true);
    expect(out.spec!.images!['constructor']!.tags.map((t) => t.tag)).toEqual(['1']);
    expect(JSON.parse(JSON.stringify(out)).spec.images.constructor.tags).toHaveLength(1);
    expect((Object as unknown as { tags?: unknown }).tags).toBeUndefined();
  });
});
