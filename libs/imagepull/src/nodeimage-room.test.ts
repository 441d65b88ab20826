import { KINDS } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import type { ImageSpec, NodeImage } from '@regatta/api';
import { trimForMirror } from '@regatta/bus';
import {
  NO_ROOM_RETRY_MS,
  NODE_IMAGE_BYTES_BUDGET,
  NoRoomNodes,
  StoredSizes,
  bytesWithEntry,
  entryRoomProblem,
} from './nodeimage-room.js';
import { nextImageEntry } from './sync.js';
import { job, nodeImage, owner } from './testing/fixtures.js';

/** A NodeImage with `count` images, the first one carrying a sandboxConfig annotation of `fill` characters. */
function withImages(count: number, fill = 0): NodeImage {
  const ni = nodeImage('n', { tag: '1' });
  const images = ni.spec!.images!;
  const entry = images['nginx']!;
  for (let i = 1; i < count; i++) images[`img-${i}`] = structuredClone(entry);
  if (fill > 0) entry.sandboxConfig = { annotations: { fill: 'x'.repeat(fill) } };
  return ni;
}

const now = new Date('2026-01-01T00:00:00Z');
const fixed = { random: () => 0 };

/** The NodeImage with the job's entry written, built by hand: the reference the size is checked against. */
function written(ni: NodeImage, name: string, entry: ImageSpec): NodeImage {
  const out = structuredClone(ni);
  ((out.spec ??= {}).images ??= {})[name] = entry;
  return out;
}

/** entryRoomProblem of `ni` for the job `j`, as the controller asks it. */
function problemFor(ni: NodeImage, j = job((x) => (x.spec.image = 'redis:7')), budget?: number): string | undefined {
  const { name, entry } = nextImageEntry(ni, j, [], now, fixed)!;
  return entryRoomProblem(ni, new StoredSizes().of(ni), name, entry, budget);
}

describe('entryRoomProblem: one more image tag in a NodeImage (finding 23)', () => {
  it.each([
    { name: 'a small NodeImage', ni: withImages(1), problem: undefined },
    { name: '255 images and a new one', ni: withImages(255), problem: undefined },
    {
      name: '256 images and a new one',
      ni: withImages(256),
      problem: 'it would hold 257 images, more than the 256 a NodeImage may hold',
    },
    { name: 'just under the budget', ni: withImages(1, NODE_IMAGE_BYTES_BUDGET - 1024), problem: undefined },
    {
      name: 'past the budget',
      ni: withImages(1, NODE_IMAGE_BYTES_BUDGET),
      problem: /^it would grow to 1025 KiB, past the 1024 KiB/,
    },
  ])('$name', ({ ni, problem }) => {
    const got = problemFor(ni);
    if (problem instanceof RegExp) expect(got).toMatch(problem);
    else expect(got).toBe(problem);
  });

  it('a new tag of an image already there does not count as one more image', () => {
    expect(problemFor(withImages(256), job())).toBeUndefined();
  });

  it('counts bytes, not characters', () => {
    const ni = withImages(1);
    ni.metadata!.annotations = { wide: 'é'.repeat(600) };
    expect(problemFor(ni, job(), JSON.stringify(ni).length + 400)).toMatch(/past the/);
  });
});

describe('entryRoomProblem: the size without building the NodeImage (finding 25)', () => {
  const unicode = withImages(3);
  unicode.metadata!.annotations = { note: 'ü'.repeat(50) };
  it.each([
    { name: 'a NodeImage without spec: the first image', ni: nodeImage('n'), j: job() },
    { name: 'a new image among others', ni: withImages(3), j: job((x) => (x.spec.image = 'redis:7')) },
    { name: 'a new tag of an image it holds', ni: nodeImage('n', { tag: '1.19', image: 'nginx' }), j: job() },
    {
      name: 'another owner of a tag it holds',
      ni: nodeImage('n', { tag: '1.20', owners: [owner('other', 'job2')] }),
      j: job((x) => (x.spec.sandboxConfig = { labels: { wide: 'é'.repeat(40) } })),
    },
    { name: 'multi-byte characters elsewhere', ni: unicode, j: job((x) => (x.spec.image = 'busybox')) },
  ])('$name: the exact size of the NodeImage written', ({ ni, j }) => {
    const { name, entry } = nextImageEntry(ni, j, [], now, fixed)!;
    const exact = Buffer.byteLength(JSON.stringify(written(ni, name, entry)));
    expect(bytesWithEntry(ni, new StoredSizes().of(ni), name, entry)).toBe(exact);
    expect(problemFor(ni, j, exact)).toBeUndefined();
    expect(problemFor(ni, j, exact - 1)).toMatch(/past the/);
  });

  it('StoredSizes serializes each object once', () => {
    const sizes = new StoredSizes();
    const ni = withImages(2);
    const first = sizes.of(ni);
    ni.spec!.images!['grown'] = { tags: [] };
    expect(sizes.of(ni)).toBe(first);
    expect(sizes.of(structuredClone(ni))).toBeGreaterThan(first);
  });
});

describe('StoredSizes: a cached copy counted as stored (finding 27)', () => {
  /** A NodeImage as the API server answers it: managedFields listing each image, and kubectl's last-applied copy. */
  function stored(count: number, fill: number): NodeImage {
    const ni = withImages(count, fill);
    const images = Object.fromEntries(Object.keys(ni.spec!.images!).map((k) => [`f:${k}`, { 'f:tags': {} }]));
    ni.metadata!.managedFields = [
      { manager: 'regatta-imagepull', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:images': images } } },
    ];
    ni.metadata!.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': '{"kind":"NodeImage"}', kept: 'yes' };
    return ni;
  }
  const cached = (ni: NodeImage) => trimForMirror(ni, KINDS.nodeimages);

  it('a cached copy of a NodeImage learnt from the API server: the size it has there', () => {
    const sizes = new StoredSizes();
    const ni = stored(40, 1000);
    sizes.learn(ni);
    expect(sizes.of(cached(ni))).toBe(Buffer.byteLength(JSON.stringify(ni)));
    expect(sizes.of(ni)).toBe(Buffer.byteLength(JSON.stringify(ni)));
    // another NodeImage, never read: its own size
    const other = cached(stored(3, 0));
    other.metadata!.name = 'other';
    expect(sizes.of(other)).toBe(Buffer.byteLength(JSON.stringify(other)));
  });

  it('a full NodeImage has no room in its cached copy either (counted without managedFields, it had)', () => {
    const j = job((x) => (x.spec.image = 'redis:7'));
    const full = stored(200, 0);
    const { name, entry } = nextImageEntry(full, j, [], now, fixed)!;
    const budget = Buffer.byteLength(JSON.stringify(written(full, name, entry))) - 1;
    const sizes = new StoredSizes();
    const copy = cached(full);
    expect(entryRoomProblem(copy, sizes.of(copy), name, entry, budget)).toBeUndefined();
    sizes.learn(full);
    expect(entryRoomProblem(copy, sizes.of(copy), name, entry, budget)).toMatch(/past the/);
    expect(entryRoomProblem(copy, sizes.of(copy), name, entry, budget + 1)).toBeUndefined();
  });
});

describe('NoRoomNodes', () => {
  it('leaves a node out of one job until the retry interval is over', () => {
    const r = new NoRoomNodes();
    r.leaveOut('ns/a', 'n1', 1000);
    expect(r.writable('ns/a', ['n1', 'n2'], 1000)).toEqual(['n2']);
    expect(r.writable('ns/b', ['n1', 'n2'], 1000)).toEqual(['n1', 'n2']);
    expect(r.nextRetryMs('ns/a', 1500)).toBe(NO_ROOM_RETRY_MS - 500);
    expect(r.nextRetryMs('ns/b', 1500)).toBeUndefined();
    expect(r.writable('ns/a', ['n1', 'n2'], 1000 + NO_ROOM_RETRY_MS)).toEqual(['n1', 'n2']);
    expect(r.nextRetryMs('ns/a', 1000 + NO_ROOM_RETRY_MS)).toBeUndefined();
  });

  it('is first for a job once, until the job is forgotten', () => {
    const r = new NoRoomNodes();
    expect([r.firstFor('ns/a'), r.firstFor('ns/a'), r.firstFor('ns/b')]).toEqual([true, false, true]);
    r.forget('ns/a');
    expect(r.firstFor('ns/a')).toBe(true);
  });

  it('the first wait to end sets the retry; forget drops the job', () => {
    const r = new NoRoomNodes();
    r.leaveOut('ns/a', 'n1', 0);
    r.leaveOut('ns/a', 'n2', 10_000);
    expect(r.nextRetryMs('ns/a', 20_000)).toBe(NO_ROOM_RETRY_MS - 20_000);
    r.forget('ns/a');
    expect(r.writable('ns/a', ['n1', 'n2'], 20_000)).toEqual(['n1', 'n2']);
  });
});
