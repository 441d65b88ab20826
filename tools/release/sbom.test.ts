import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { digest } from './oci.js';
import {
  bundledPackageDirs,
  bundledWorkspaceLibs,
  npmComponents,
  sbomArtifactManifest,
  sbomOf,
} from './sbom.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
// a bundle's source map names its inputs relative to the map (tools/build/build.mjs)
const sources = [
  'regatta-require-http:node:http',
  '../../../work/main/node_modules/undici/lib/core/symbols.js',
  '../../../work/main/node_modules/undici/lib/core/errors.js',
  '../../../work/main/node_modules/@nats-io/nats-core/lib/core.js',
  '../../../work/main/node_modules/a/node_modules/b/index.js',
  '../../../work/main/libs/telemetry/src/object-trace.ts',
  '../../../work/main/libs/api/src/group.ts',
];

describe('what a bundle holds', () => {
  it('its npm package folders, nested ones apart', () => {
    expect(bundledPackageDirs(sources)).toEqual([
      'node_modules/@nats-io/nats-core',
      'node_modules/a/node_modules/b',
      'node_modules/undici',
    ]);
  });
  it('its workspace libraries', () => {
    expect(bundledWorkspaceLibs(sources)).toEqual(['api', 'telemetry']);
  });
  it("reads each package's name, version and license from the workspace", () => {
    const [yaml] = npmComponents(root, ['node_modules/yaml', 'node_modules/no-such-package']);
    expect(yaml).toMatchObject({ name: 'yaml', license: 'ISC' });
    expect(yaml?.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('sbomOf', () => {
  const input = {
    app: 'cloneset',
    version: '0.9.0',
    nodeVersion: '24.11.1',
    libraries: [{ path: '/lib/x86_64-linux-gnu/libc.so.6', sha256: 'ab'.repeat(32) }],
    packages: [{ name: '@nats-io/nats-core', version: '3.1.0', license: 'Apache-2.0' }],
    workspaceLibs: ['cloneset'],
  };
  it('is CycloneDX 1.5 naming the image, Node, the libraries, the packages (purl) and the workspace libraries', () => {
    const bom = sbomOf(input);
    expect(bom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      metadata: { component: { type: 'container', name: 'regatta-cloneset', version: '0.9.0' } },
    });
    expect(bom['components']).toEqual([
      expect.objectContaining({ type: 'application', name: 'node', version: '24.11.1' }),
      expect.objectContaining({
        type: 'file',
        name: '/lib/x86_64-linux-gnu/libc.so.6',
        hashes: [{ alg: 'SHA-256', content: 'ab'.repeat(32) }],
      }),
      expect.objectContaining({
        type: 'library',
        purl: 'pkg:npm/%40nats-io/nats-core@3.1.0',
        licenses: [{ expression: 'Apache-2.0' }],
      }),
      expect.objectContaining({ type: 'library', name: '@regatta/cloneset', version: '0.9.0' }),
    ]);
  });
  it('is reproducible: the same input, the same document (serial number included); another input, another serial', () => {
    expect(sbomOf(input)).toEqual(sbomOf(input));
    expect(sbomOf({ ...input, nodeVersion: '24.12.0' })['serialNumber']).not.toBe(
      sbomOf(input)['serialNumber'],
    );
    expect(sbomOf(input)['serialNumber']).toMatch(
      /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('sbomArtifactManifest', () => {
  it('an OCI 1.1 artifact: the SBOM as its layer, the image as its subject', () => {
    const sbom = Buffer.from('{"bomFormat":"CycloneDX"}');
    const image = Buffer.from('{"schemaVersion":2}');
    const m = JSON.parse(sbomArtifactManifest(sbom, image).manifest.toString()) as Record<string, unknown>;
    expect(m).toMatchObject({
      artifactType: 'application/vnd.cyclonedx+json',
      config: { mediaType: 'application/vnd.oci.empty.v1+json', size: 2 },
      layers: [{ mediaType: 'application/vnd.cyclonedx+json', digest: digest(sbom), size: sbom.length }],
      subject: { digest: digest(image), size: image.length },
    });
  });
});
