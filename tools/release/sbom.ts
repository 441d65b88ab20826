// A software bill of materials for each image (issue 48, docs/images.md "SBOM"): CycloneDX 1.5 JSON listing what the
// image holds — the pinned Node binary, the shared libraries of the base layer (with their SHA-256), the npm packages
// bundled into the program (read from the bundle's source map: every input under node_modules) and the workspace
// libraries. Reproducible: no timestamps; the serial number is derived from the content. Written beside the image's
// layout as `<app>.cdx.json` and as an OCI artifact layout `<app>.sbom/` whose manifest names the image as its
// `subject` (pushed next to the image, a registry with the referrers API links them).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, digest, MEDIA } from './oci.js';

export const CYCLONEDX_MEDIA_TYPE = 'application/vnd.cyclonedx+json';
const EMPTY_MEDIA_TYPE = 'application/vnd.oci.empty.v1+json';

/** An npm package bundled into a program. */
export interface NpmComponent {
  name: string;
  version: string;
  license?: string;
}

/**
 * The package folders (relative to the workspace root, e.g. `node_modules/@nats-io/nats-core`, a nested one as
 * `node_modules/a/node_modules/b`) of a bundle's inputs, from its source map's `sources` (relative to the map). Pure.
 */
export function bundledPackageDirs(sources: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const source of sources) {
    const path = source.replace(/\\/g, '/');
    const at = path.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const rest = path.slice(at + 'node_modules/'.length).split('/');
    const name = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1] ?? ''}` : (rest[0] ?? '');
    if (!name || name.endsWith('/')) continue;
    // the folder from the first node_modules on (the map's sources start with ../ up to the workspace)
    const first = path.indexOf('node_modules/');
    dirs.add(`${path.slice(first, at)}node_modules/${name}`);
  }
  return [...dirs].sort();
}

/** The workspace libraries (`libs/<name>`) a bundle's sources come from. Pure. */
export function bundledWorkspaceLibs(sources: readonly string[]): string[] {
  const libs = new Set<string>();
  for (const source of sources) {
    const m = /(?:^|\/)libs\/([^/]+)\/src\//.exec(source.replace(/\\/g, '/'));
    if (m?.[1] && !source.includes('node_modules/')) libs.add(m[1]);
  }
  return [...libs].sort();
}

/** Name, version and license of each package folder under `root`. */
export function npmComponents(root: string, dirs: readonly string[]): NpmComponent[] {
  const out = new Map<string, NpmComponent>();
  for (const dir of dirs) {
    const file = join(root, dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
      name?: string;
      version?: string;
      license?: unknown;
    };
    if (!pkg.name || !pkg.version) continue;
    const license = typeof pkg.license === 'string' ? pkg.license : undefined;
    out.set(`${pkg.name}@${pkg.version}`, {
      name: pkg.name,
      version: pkg.version,
      ...(license ? { license } : {}),
    });
  }
  return [...out.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1,
  );
}

const purl = (name: string, version: string) =>
  `pkg:npm/${name.startsWith('@') ? `%40${name.slice(1)}` : name}@${version}`;

/** The CycloneDX document of one image. Pure. */
export function sbomOf(o: {
  app: string;
  version: string;
  nodeVersion: string;
  libraries: readonly { path: string; sha256: string }[];
  packages: readonly NpmComponent[];
  workspaceLibs: readonly string[];
}): Record<string, unknown> {
  const components = [
    {
      type: 'application',
      name: 'node',
      version: o.nodeVersion,
      purl: `pkg:generic/node@${o.nodeVersion}`,
      description:
        'the Node.js binary of the base layer (the workspace pins it through the `node` npm package)',
    },
    ...o.libraries.map((l) => ({
      type: 'file',
      name: l.path,
      hashes: [{ alg: 'SHA-256', content: l.sha256 }],
      description: 'a shared library of the base layer (found by ldd for node)',
    })),
    ...o.packages.map((p) => ({
      type: 'library',
      name: p.name,
      version: p.version,
      purl: purl(p.name, p.version),
      ...(p.license ? { licenses: [{ expression: p.license }] } : {}),
    })),
    ...o.workspaceLibs.map((name) => ({
      type: 'library',
      name: `@regatta/${name}`,
      version: o.version,
      description: 'a library of this repository, bundled into the program',
    })),
  ];
  const body = {
    metadata: {
      component: { type: 'container', name: `regatta-${o.app}`, version: o.version },
      tools: { components: [{ type: 'application', name: 'regatta release' }] },
    },
    components,
  };
  const h = digest(canonicalJson(body)).slice('sha256:'.length);
  const serial = `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return { bomFormat: 'CycloneDX', specVersion: '1.5', serialNumber: serial, version: 1, ...body };
}

/** The OCI artifact manifest carrying `sbom` for the image manifest `subject` (OCI 1.1 `artifactType`, `subject`). */
export function sbomArtifactManifest(sbom: Buffer, subject: Buffer): { manifest: Buffer; empty: Buffer } {
  const empty = Buffer.from('{}');
  const manifest = canonicalJson({
    schemaVersion: 2,
    mediaType: MEDIA.manifest,
    artifactType: CYCLONEDX_MEDIA_TYPE,
    config: { mediaType: EMPTY_MEDIA_TYPE, digest: digest(empty), size: empty.length },
    layers: [{ mediaType: CYCLONEDX_MEDIA_TYPE, digest: digest(sbom), size: sbom.length }],
    subject: { mediaType: MEDIA.manifest, digest: digest(subject), size: subject.length },
  });
  return { manifest, empty };
}
