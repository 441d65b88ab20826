// The pure parts of an OCI image (docs/images.md): tar entries written byte for byte (ustar, fixed owner and time),
// deterministic gzip, sha256 digests, and the image configuration, manifest and index JSON with a fixed `created`.
// Same inputs, same bytes: the same commit gives the same digests (tools/release/release.test.ts).
// Formats: the OCI image spec (image-layout.md, manifest.md, config.md) and POSIX ustar.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

/** One file, directory or symbolic link of a layer. `path` is relative to the root, no leading `/` or `./`. */
export type TarEntry =
  | { type: 'dir'; path: string; mode: number }
  | { type: 'file'; path: string; mode: number; data: Uint8Array }
  | { type: 'symlink'; path: string; target: string };

/** The time every entry and the image carry: the epoch (a fixed value, so builds repeat). */
export const EPOCH = '1970-01-01T00:00:00Z';

const BLOCK = 512;

function octal(value: number, width: number): string {
  // width - 1 octal digits, zero-padded, then NUL
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function put(h: Uint8Array, offset: number, width: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length > width) throw new Error(`tar: "${text}" is longer than ${width} bytes`);
  h.set(bytes, offset);
}

/** Splits a path longer than 100 bytes into ustar's prefix (≤155) and name (≤100) at a `/`. */
export function splitName(path: string): { prefix: string; name: string } {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i] !== '/') continue;
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100 && name.length > 0) {
      return { prefix, name };
    }
  }
  throw new Error(`tar: path too long for ustar: ${path}`);
}

/** The 512-byte ustar header of `e`: owner 0:0 (no names), mtime 0. */
export function tarHeader(e: TarEntry): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const path = e.type === 'dir' ? `${e.path.replace(/\/$/, '')}/` : e.path;
  const { prefix, name } = splitName(path);
  const size = e.type === 'file' ? e.data.length : 0;
  const mode = e.type === 'symlink' ? 0o777 : e.mode;
  put(h, 0, 100, name);
  put(h, 100, 8, octal(mode, 8));
  put(h, 108, 8, octal(0, 8));
  put(h, 116, 8, octal(0, 8));
  put(h, 124, 12, octal(size, 12));
  put(h, 136, 12, octal(0, 12));
  put(h, 148, 8, '        ');
  put(h, 156, 1, e.type === 'file' ? '0' : e.type === 'dir' ? '5' : '2');
  if (e.type === 'symlink') put(h, 157, 100, e.target);
  put(h, 257, 6, 'ustar\0');
  put(h, 263, 2, '00');
  put(h, 329, 8, octal(0, 8));
  put(h, 337, 8, octal(0, 8));
  put(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  put(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return h;
}

/**
 * A tar archive of `entries` in name order (a directory before what it holds), each parent directory present, ended
 * by two zero blocks.
 */
export function tarArchive(entries: readonly TarEntry[]): Buffer {
  const sorted = withParents(entries).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts: Uint8Array[] = [];
  for (const e of sorted) {
    parts.push(tarHeader(e));
    if (e.type === 'file' && e.data.length > 0) {
      parts.push(e.data);
      const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
      if (pad > 0) parts.push(new Uint8Array(pad));
    }
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return Buffer.concat(parts);
}

/** `entries` plus a 0755 directory for every missing parent; duplicate paths are an error. */
export function withParents(entries: readonly TarEntry[]): TarEntry[] {
  const byPath = new Map<string, TarEntry>();
  for (const e of entries) {
    const p = e.path.replace(/\/$/, '');
    if (p === '' || p.startsWith('/') || p.split('/').includes('..'))
      throw new Error(`tar: bad path "${e.path}"`);
    if (byPath.has(p)) throw new Error(`tar: "${p}" twice`);
    byPath.set(p, { ...e, path: p });
  }
  for (const p of [...byPath.keys()]) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      if (!byPath.has(dir)) byPath.set(dir, { type: 'dir', path: dir, mode: 0o755 });
    }
  }
  return [...byPath.values()];
}

/** gzip with no name and mtime 0 in its header (zlib writes both so): the same tar, the same bytes. */
export function gzip(data: Uint8Array): Buffer {
  return gzipSync(data, { level: 6 });
}

/** `sha256:<hex>` of `data`. */
export function digest(data: Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

export const MEDIA = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

/** A blob as a manifest or index references it. */
export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

/** A layer: its gzip blob and the digest of the uncompressed tar (the config's diff_id). */
export interface Layer {
  blob: Buffer;
  descriptor: Descriptor;
  diffId: string;
  /** what made it, for the config's history */
  createdBy: string;
}

/** Makes a layer of `entries`. */
export function layerOf(entries: readonly TarEntry[], createdBy: string): Layer {
  const tar = tarArchive(entries);
  const blob = gzip(tar);
  return {
    blob,
    descriptor: { mediaType: MEDIA.layer, digest: digest(blob), size: blob.length },
    diffId: digest(tar),
    createdBy,
  };
}

/** What runs: the image configuration's `config` (docker/OCI field names). */
export interface RunConfig {
  User: string;
  Env: string[];
  Entrypoint: string[];
  WorkingDir: string;
  ExposedPorts?: Record<string, Record<string, never>>;
  Labels?: Record<string, string>;
}

/** Node's `process.arch` as OCI names the architecture. */
export function ociArchitecture(arch: string): string {
  const names: Record<string, string> = {
    x64: 'amd64',
    arm64: 'arm64',
    arm: 'arm',
    ppc64: 'ppc64le',
    s390x: 's390x',
  };
  const name = names[arch];
  if (!name) throw new Error(`no OCI architecture for ${arch}`);
  return name;
}

/** Serialises JSON as every blob here is written: two-space indent, no trailing newline. */
export function canonicalJson(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value, null, 2), 'utf8');
}

/** The image configuration blob: run config, layers' diff_ids, one history entry per layer, all at EPOCH. */
export function imageConfig(o: {
  architecture: string;
  config: RunConfig;
  layers: readonly Layer[];
}): Buffer {
  return canonicalJson({
    created: EPOCH,
    architecture: o.architecture,
    os: 'linux',
    config: o.config,
    rootfs: { type: 'layers', diff_ids: o.layers.map((l) => l.diffId) },
    history: o.layers.map((l) => ({ created: EPOCH, created_by: l.createdBy })),
  });
}

/** The image manifest blob for a config blob and its layers. */
export function imageManifest(
  config: Buffer,
  layers: readonly Layer[],
  annotations?: Record<string, string>,
): Buffer {
  return canonicalJson({
    schemaVersion: 2,
    mediaType: MEDIA.manifest,
    config: { mediaType: MEDIA.config, digest: digest(config), size: config.length },
    layers: layers.map((l) => l.descriptor),
    ...(annotations ? { annotations } : {}),
  });
}

/** The layout's index.json: one manifest, named `ref` (org.opencontainers.image.ref.name). */
export function layoutIndex(manifest: Buffer, ref: string): Buffer {
  return canonicalJson({
    schemaVersion: 2,
    mediaType: MEDIA.index,
    manifests: [
      {
        mediaType: MEDIA.manifest,
        digest: digest(manifest),
        size: manifest.length,
        annotations: { 'org.opencontainers.image.ref.name': ref },
      },
    ],
  });
}

/** The layout's `oci-layout` file. */
export const OCI_LAYOUT = canonicalJson({ imageLayoutVersion: '1.0.0' });
