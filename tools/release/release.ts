// Builds the OCI image layouts of Regatta's programs (docs/images.md): one layout per program under the output
// folder, `<out>/<app>/` (oci-layout, index.json, blobs/sha256/…), named `<registry>/regatta-<app>:<version>` as the
// chart's `image` values compose it. Two layers: the base (Node and its libraries, the same blob in every image, hard
// linked between layouts) and the program's bundle. No Docker, no crane: tar, gzip and JSON are written here.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverApps } from '../build/apps.mjs';
import { appEntries, baseEntries, parseLdd, runConfig, NODE_PATH } from './image.js';
import {
  OCI_LAYOUT,
  digest,
  imageConfig,
  imageManifest,
  layerOf,
  layoutIndex,
  ociArchitecture,
  type Layer,
} from './oci.js';
import { sbomArtifactManifest } from './sbom.js';

/**
 * The programs that get an image: every buildable app (tools/build/apps.mjs) but command-line tools, i.e. apps whose
 * package.json declares a `bin` (the sandbox CLI). A new controller's app gets an image with no edit here.
 */
export function imagePrograms(root: string): string[] {
  return discoverApps(root)
    .filter((a) => {
      const pkg = JSON.parse(readFileSync(join(a.dir, 'package.json'), 'utf8')) as { bin?: unknown };
      return pkg.bin === undefined;
    })
    .map((a) => a.name);
}

/** The Node binary the workspace pins (the `node` npm package) and its version. */
export function pinnedNode(root: string): { path: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(root, 'node_modules', 'node', 'package.json'), 'utf8')) as {
    version: string;
  };
  const path = join(root, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(path)) throw new Error(`the pinned Node binary is missing (${path}): run npm ci`);
  return { path, version: pkg.version };
}

/**
 * The base layer: Node and the shared libraries `ldd` finds for it on this machine, read through symlinks; with each
 * library's SHA-256 (hex) for the images' SBOM (sbom.ts).
 */
export function baseLayer(nodePath: string): {
  layer: Layer;
  libraries: string[];
  libraryDigests: { path: string; sha256: string }[];
} {
  const { libraries, missing } = parseLdd(execFileSync('ldd', [nodePath], { encoding: 'utf8' }));
  if (missing.length > 0) throw new Error(`ldd ${nodePath}: not found: ${missing.join(', ')}`);
  const libs = new Map(libraries.map((l) => [l, new Uint8Array(readFileSync(l))]));
  const layer = layerOf(
    baseEntries(new Uint8Array(readFileSync(nodePath)), libs),
    `regatta release: /${NODE_PATH} and ${libraries.length} shared libraries (ldd)`,
  );
  const libraryDigests = [...libs].map(([path, bytes]) => ({
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  }));
  return { layer, libraries, libraryDigests };
}

/** The files of a bundle folder (tools/build/build.mjs output), by name. */
export function bundleFiles(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const name of readdirSync(dir).sort()) out.set(name, new Uint8Array(readFileSync(join(dir, name))));
  return out;
}

export interface BuiltImage {
  app: string;
  ref: string;
  /** the manifest's digest (what a registry reports after a push) */
  digest: string;
  layout: string;
  /** compressed bytes: config + layers */
  size: number;
  layers: { digest: string; size: number }[];
  /** its software bill of materials (sbom.ts): the CycloneDX file and the OCI artifact layout naming the image */
  sbom?: { file: string; layout: string; digest: string };
}

function writeBlob(layout: string, data: Buffer, d: string, linkFrom?: string): void {
  const path = join(layout, 'blobs', 'sha256', d.slice('sha256:'.length));
  if (existsSync(path)) return;
  if (linkFrom && existsSync(linkFrom)) {
    try {
      linkSync(linkFrom, path);
      return;
    } catch {
      // another filesystem: write it
    }
  }
  writeFileSync(path, data);
}

/** Writes the layout of one program's image at `<outDir>/<app>`. */
export function writeImage(o: {
  app: string;
  bundleDir: string;
  base: Layer;
  outDir: string;
  repository: string;
  version: string;
  architecture?: string;
  /** a layout already holding the base blob, to hard link it from */
  baseFrom?: string;
  /** the image's CycloneDX document (sbom.ts `sbomOf`), written beside the layout */
  sbom?: Record<string, unknown>;
}): BuiltImage {
  const layout = join(o.outDir, o.app);
  rmSync(layout, { recursive: true, force: true });
  mkdirSync(join(layout, 'blobs', 'sha256'), { recursive: true });
  const app = layerOf(appEntries(bundleFiles(o.bundleDir)), `regatta release: /app (npm run build ${o.app})`);
  const layers = [o.base, app];
  const config = imageConfig({
    architecture: o.architecture ?? ociArchitecture(process.arch),
    config: runConfig({ app: o.app, version: o.version }),
    layers,
  });
  const ref = `${o.repository}/regatta-${o.app}:${o.version}`;
  const manifest = imageManifest(config, layers);
  const baseFrom = o.baseFrom
    ? join(o.baseFrom, 'blobs', 'sha256', o.base.descriptor.digest.slice('sha256:'.length))
    : undefined;
  writeBlob(layout, o.base.blob, o.base.descriptor.digest, baseFrom);
  writeBlob(layout, app.blob, app.descriptor.digest);
  writeBlob(layout, config, digest(config));
  writeBlob(layout, manifest, digest(manifest));
  writeFileSync(join(layout, 'oci-layout'), OCI_LAYOUT);
  writeFileSync(join(layout, 'index.json'), layoutIndex(manifest, ref));
  return {
    app: o.app,
    ref,
    digest: digest(manifest),
    layout,
    size: config.length + layers.reduce((n, l) => n + l.descriptor.size, 0),
    layers: layers.map((l) => ({ digest: l.descriptor.digest, size: l.descriptor.size })),
    ...(o.sbom
      ? { sbom: writeSbom(o.outDir, o.app, o.sbom, manifest, `${o.repository}/regatta-${o.app}`) }
      : {}),
  };
}

/**
 * `<out>/<app>.cdx.json`, and `<out>/<app>.sbom/`: an OCI layout of the artifact whose `subject` is the image, named
 * by the cosign tag convention (`sha256-<digest>.sbom`) so a registry without the referrers API finds it too.
 */
function writeSbom(
  outDir: string,
  app: string,
  sbom: Record<string, unknown>,
  imageManifest: Buffer,
  repository: string,
): { file: string; layout: string; digest: string } {
  const doc = Buffer.from(`${JSON.stringify(sbom, null, 2)}\n`, 'utf8');
  const file = join(outDir, `${app}.cdx.json`);
  writeFileSync(file, doc);
  const layout = join(outDir, `${app}.sbom`);
  rmSync(layout, { recursive: true, force: true });
  mkdirSync(join(layout, 'blobs', 'sha256'), { recursive: true });
  const { manifest, empty } = sbomArtifactManifest(doc, imageManifest);
  for (const blob of [doc, empty, manifest]) writeBlob(layout, blob, digest(blob));
  writeFileSync(join(layout, 'oci-layout'), OCI_LAYOUT);
  const tag = `${digest(imageManifest).replace(':', '-')}.sbom`;
  writeFileSync(join(layout, 'index.json'), layoutIndex(manifest, `${repository}:${tag}`));
  return { file, layout, digest: digest(manifest) };
}
