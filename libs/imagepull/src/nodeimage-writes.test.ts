import { describe, expect, it } from 'vitest';
import { foldTagChanges, type TagChange } from './nodeimage-writes.js';
import { nextImageEntry } from './sync.js';
import { job, nodeImage } from './testing/fixtures.js';

const now = new Date('2026-01-01T00:00:00Z');
const fixed = { random: () => 0 };
const jobFor = (image: string, uid: string, big = 0) =>
  job((x) => {
    x.spec.image = image;
    x.metadata!.uid = uid;
    x.metadata!.name = uid;
    if (big > 0) x.spec.sandboxConfig = { labels: { big: 'x'.repeat(big) } };
  });
const changeOf =
  (j: ReturnType<typeof job>): TagChange =>
  (ni) =>
    nextImageEntry(ni, j, [], now, fixed);

describe('foldTagChanges: several jobs’ tags in one NodeImage write (finding 25)', () => {
  it('applies each change on top of the ones before it; the NodeImage given is left alone', () => {
    const ni = nodeImage('n');
    const before = structuredClone(ni);
    const { next, verdicts } = foldTagChanges(ni, [
      changeOf(jobFor('nginx:1', 'a')),
      changeOf(jobFor('nginx:1', 'b')),
      changeOf(jobFor('redis:7', 'c')),
    ]);
    expect(verdicts).toEqual(['applied', 'applied', 'applied']);
    expect(ni).toEqual(before);
    const nginx = next!.spec!.images!['nginx']!.tags;
    expect(nginx.map((t) => [t.tag, t.version, t.ownerReferences?.map((o) => o.uid)])).toEqual([
      ['1', 1, ['a', 'b']],
    ]);
    expect(Object.keys(next!.spec!.images!)).toEqual(['nginx', 'redis']);
  });

  it('a change with nothing to write is unchanged; none applied → no NodeImage to write', () => {
    const ni = nodeImage('n', { tag: '1.20' });
    expect(foldTagChanges(ni, [changeOf(job())])).toEqual({ next: undefined, verdicts: ['unchanged'] });
  });

  it('room is judged after the changes before it: the one that would not fit is left out, the rest go on', () => {
    const ni = nodeImage('n');
    const first = foldTagChanges(ni, [changeOf(jobFor('a:1', 'a', 2_000))]).next!;
    const budget = Buffer.byteLength(JSON.stringify(first)) + 300;
    const { next, verdicts } = foldTagChanges(
      ni,
      [
        changeOf(jobFor('a:1', 'a', 2_000)),
        changeOf(jobFor('b:1', 'b', 2_000)),
        changeOf(jobFor('c:1', 'c')),
      ],
      budget,
    );
    expect(verdicts[0]).toBe('applied');
    expect(verdicts[1]).toEqual({
      noRoom: expect.stringMatching(/^it would grow to \d+ KiB, past the \d+ KiB/),
    });
    expect(verdicts[2]).toBe('applied');
    expect(Object.keys(next!.spec!.images!)).toEqual(['a', 'c']);
    expect(Buffer.byteLength(JSON.stringify(next))).toBeLessThanOrEqual(budget);
  });
});
