import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  EPOCH,
  MEDIA,
  digest,
  gzip,
  imageConfig,
  imageManifest,
  layerOf,
  layoutIndex,
  ociArchitecture,
  splitName,
  tarArchive,
  tarHeader,
  withParents,
  type TarEntry,
} from './oci.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s));

describe('tarHeader', () => {
  it.each<[string, TarEntry, string, number]>([
    ['a file', { type: 'file', path: 'etc/passwd', mode: 0o644, data: bytes('x\n') }, '0', 2],
    ['a directory', { type: 'dir', path: 'tmp', mode: 0o1777 }, '5', 0],
    ['a symbolic link', { type: 'symlink', path: 'lib64', target: 'lib' }, '2', 0],
  ])('%s: type, size, owner 0, mtime 0, a valid checksum', (_, entry, type, size) => {
    const h = tarHeader(entry);
    expect(h.length).toBe(512);
    const text = (o: number, n: number) =>
      Buffer.from(h.subarray(o, o + n))
        .toString('latin1')
        .replace(/\0.*$/s, '');
    expect(text(156, 1)).toBe(type);
    expect(parseInt(text(124, 12), 8)).toBe(size);
    expect(parseInt(text(108, 8), 8)).toBe(0);
    expect(parseInt(text(136, 12), 8)).toBe(0);
    expect(text(257, 6)).toBe('ustar');
    const stored = parseInt(text(148, 7), 8);
    const copy = new Uint8Array(h);
    copy.fill(32, 148, 156);
    expect(copy.reduce((a, b) => a + b, 0)).toBe(stored);
  });

  it('splits a long path into prefix and name at a slash', () => {
    const long = `${'d'.repeat(60)}/${'e'.repeat(60)}/file`;
    expect(splitName(long)).toEqual({ prefix: `${'d'.repeat(60)}/${'e'.repeat(60)}`, name: 'file' });
    expect(splitName('short/name')).toEqual({ prefix: '', name: 'short/name' });
    expect(() => splitName('x'.repeat(300))).toThrow(/too long/);
  });
});

describe('withParents', () => {
  it('adds missing parent directories and refuses duplicates and escapes', () => {
    const paths = withParents([{ type: 'file', path: 'usr/local/bin/node', mode: 0o755, data: bytes('') }])
      .map((e) => `${e.type}:${e.path}`)
      .sort();
    expect(paths).toEqual(['dir:usr', 'dir:usr/local', 'dir:usr/local/bin', 'file:usr/local/bin/node']);
    expect(() =>
      withParents([
        { type: 'dir', path: 'a', mode: 0o755 },
        { type: 'dir', path: 'a/', mode: 0o755 },
      ]),
    ).toThrow(/twice/);
    expect(() => withParents([{ type: 'dir', path: '../a', mode: 0o755 }])).toThrow(/bad path/);
    expect(() => withParents([{ type: 'dir', path: '/a', mode: 0o755 }])).toThrow(/bad path/);
  });
});

describe('tarArchive', () => {
  const entries: TarEntry[] = [
    { type: 'file', path: 'app/main.mjs', mode: 0o644, data: bytes('console.log(1)\n') },
    { type: 'dir', path: 'tmp', mode: 0o1777 },
    { type: 'symlink', path: 'lib64/ld.so', target: '/lib/ld.so' },
    { type: 'file', path: 'a/long/' + 'n'.repeat(98), mode: 0o755, data: new Uint8Array(1000) },
  ];

  it('is what GNU tar reads: names in order, modes, owner 0/0, epoch times, a long path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'regatta-oci-test-'));
    try {
      const file = join(dir, 'layer.tar');
      writeFileSync(file, tarArchive(entries));
      const listing = execFileSync('tar', ['--numeric-owner', '--full-time', '-tvf', file], {
        encoding: 'utf8',
        env: { ...process.env, TZ: 'UTC' },
      });
      const rows = listing
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/));
      expect(rows.map((r) => r[5])).toEqual([
        'a/',
        'a/long/',
        `a/long/${'n'.repeat(98)}`,
        'app/',
        'app/main.mjs',
        'lib64/',
        'lib64/ld.so',
        'tmp/',
      ]);
      expect(rows.every((r) => r[1] === '0/0' && r[3] === '1970-01-01')).toBe(true);
      expect(rows.find((r) => r[5] === 'tmp/')?.[0]).toBe('drwxrwxrwt');
      expect(rows.find((r) => r[5] === 'app/main.mjs')?.[0]).toBe('-rw-r--r--');
      expect(listing).toContain('lib64/ld.so -> /lib/ld.so');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the same bytes for the same entries in any order', () => {
    const a = tarArchive(entries);
    const b = tarArchive([...entries].reverse());
    expect(digest(a)).toBe(digest(b));
    expect(a.length % 512).toBe(0);
  });
});

describe('gzip and layers', () => {
  it('is deterministic, mtime 0 in the header, and the diff_id is the uncompressed digest', () => {
    const tar = tarArchive([{ type: 'file', path: 'f', mode: 0o644, data: bytes('hello') }]);
    const one = gzip(tar);
    expect(one.equals(gzip(tar))).toBe(true);
    expect(one.readUInt32LE(4)).toBe(0);
    expect(gunzipSync(one).equals(tar)).toBe(true);
    const layer = layerOf([{ type: 'file', path: 'f', mode: 0o644, data: bytes('hello') }], 'test');
    expect(layer.diffId).toBe(digest(tar));
    expect(layer.descriptor).toEqual({
      mediaType: MEDIA.layer,
      digest: digest(layer.blob),
      size: layer.blob.length,
    });
  });
});

describe('config, manifest and index', () => {
  const layer = layerOf([{ type: 'file', path: 'f', mode: 0o644, data: bytes('x') }], 'one file');
  const run = { User: '65532:65532', Env: ['A=1'], Entrypoint: ['/x'], WorkingDir: '/' };
  const config = imageConfig({ architecture: 'amd64', config: run, layers: [layer] });

  it('fixes created and lists the diff_ids and history', () => {
    const c = JSON.parse(config.toString()) as Record<string, unknown>;
    expect(c).toEqual({
      created: EPOCH,
      architecture: 'amd64',
      os: 'linux',
      config: run,
      rootfs: { type: 'layers', diff_ids: [layer.diffId] },
      history: [{ created: EPOCH, created_by: 'one file' }],
    });
  });

  it('references the config and layers by digest and size; the index names the manifest', () => {
    const manifest = imageManifest(config, [layer]);
    const m = JSON.parse(manifest.toString()) as { config: unknown; layers: unknown[]; mediaType: string };
    expect(m.mediaType).toBe(MEDIA.manifest);
    expect(m.config).toEqual({ mediaType: MEDIA.config, digest: digest(config), size: config.length });
    expect(m.layers).toEqual([layer.descriptor]);
    const index = JSON.parse(layoutIndex(manifest, 'r/x:1').toString()) as { manifests: unknown[] };
    expect(index.manifests).toEqual([
      {
        mediaType: MEDIA.manifest,
        digest: digest(manifest),
        size: manifest.length,
        annotations: { 'org.opencontainers.image.ref.name': 'r/x:1' },
      },
    ]);
    expect(digest(imageManifest(config, [layer]))).toBe(digest(manifest));
  });

  it('maps Node architectures to OCI names', () => {
    expect(ociArchitecture('x64')).toBe('amd64');
    expect(ociArchitecture('arm64')).toBe('arm64');
    expect(() => ociArchitecture('mips')).toThrow();
  });
});
