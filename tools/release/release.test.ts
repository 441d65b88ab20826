// Reproducible: one image built twice (two runs of ldd, tar, gzip and JSON over the same inputs) has the same
// digests. The base here is /bin/true with the libraries ldd finds for it, so the test stays fast; `npm run release`
// builds the base of Node the same way (docs/images.md has the measured digests of two full builds).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { baseLayer, imagePrograms, writeImage } from './release.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'regatta-release-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function build(n: number) {
  const bundle = join(work, 'bundle');
  mkdirSync(bundle, { recursive: true });
  writeFileSync(join(bundle, 'main.mjs'), 'console.log("hello")\n');
  writeFileSync(join(bundle, 'package.json'), '{"type":"module"}\n');
  const { layer } = baseLayer('/bin/true');
  return writeImage({
    app: 'demo',
    bundleDir: bundle,
    base: layer,
    outDir: join(work, `out-${n}`),
    repository: 'registry.test/regatta',
    version: '1.2.3',
    sbom: { bomFormat: 'CycloneDX', specVersion: '1.5', components: [] },
  });
}

describe('writeImage', () => {
  it('gives the same digests when built twice, in an OCI layout', () => {
    const a = build(1);
    const b = build(2);
    expect(b.digest).toBe(a.digest);
    expect(b.layers).toEqual(a.layers);
    expect(a.ref).toBe('registry.test/regatta/regatta-demo:1.2.3');
    expect(JSON.parse(readFileSync(join(a.layout, 'oci-layout'), 'utf8'))).toEqual({
      imageLayoutVersion: '1.0.0',
    });
    const index = JSON.parse(readFileSync(join(a.layout, 'index.json'), 'utf8')) as {
      manifests: { digest: string }[];
    };
    expect(index.manifests[0]?.digest).toBe(a.digest);
    for (const d of [a.digest, ...a.layers.map((l) => l.digest)]) {
      expect(readFileSync(join(a.layout, 'blobs', 'sha256', d.slice(7))).length).toBeGreaterThan(0);
    }
    // the SBOM beside it: the CycloneDX file, and an artifact layout whose manifest names the image as its subject
    expect(b.sbom?.digest).toBe(a.sbom?.digest);
    expect(JSON.parse(readFileSync(a.sbom?.file ?? '', 'utf8'))).toMatchObject({ bomFormat: 'CycloneDX' });
    const sbomIndex = JSON.parse(readFileSync(join(a.sbom?.layout ?? '', 'index.json'), 'utf8')) as {
      manifests: { digest: string; annotations: Record<string, string> }[];
    };
    expect(sbomIndex.manifests[0]?.annotations['org.opencontainers.image.ref.name']).toBe(
      `registry.test/regatta/regatta-demo:${a.digest.replace(':', '-')}.sbom`,
    );
    const artifact = JSON.parse(
      readFileSync(join(a.sbom?.layout ?? '', 'blobs', 'sha256', (a.sbom?.digest ?? '').slice(7)), 'utf8'),
    ) as { subject: { digest: string } };
    expect(artifact.subject.digest).toBe(a.digest);
  });
});

describe('imagePrograms', () => {
  it('is every app but the CLI, from apps/', () => {
    const programs = imagePrograms(root);
    expect(programs).not.toContain('sandbox');
    for (const p of [
      'watcher',
      'cloneset',
      'asts',
      'ads',
      'sidecarset',
      'uniteddeployment',
      'resourcedistribution',
      'imagepull',
      'imagepull-agent',
    ]) {
      expect(programs).toContain(p);
    }
  });
});
