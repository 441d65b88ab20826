// `npm run release [-- app ...] [--out-dir=DIR] [--repository=REPO] [--version=V]`: bundles the programs
// (tools/build/build.mjs) and writes one OCI image layout per program into DIR (default dist/images), then
// `<DIR>/images.json` (ref, digest, size of each). Push one with `crane push <DIR>/<app> <ref>`. docs/images.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { baseLayer, imagePrograms, pinnedNode, writeImage, type BuiltImage } from './release.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const opt = (name: string): string | undefined =>
  args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const outDir = opt('out-dir') ?? join(root, 'dist', 'images');
const repository = opt('repository') ?? 'ghcr.io/regatta';
const chartVersion = /^appVersion:\s*(\S+)/m.exec(
  readFileSync(join(root, 'deploy', 'helm', 'regatta', 'Chart.yaml'), 'utf8'),
)?.[1];
const version = opt('version') ?? chartVersion ?? '0.0.0';
const known = imagePrograms(root);
const wanted = args.filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !known.includes(w));
if (unknown.length > 0) {
  process.stderr.write(`release: no image for ${unknown.join(', ')}; programs: ${known.join(', ')}\n`);
  process.exit(2);
}
const apps = wanted.length > 0 ? wanted : known;

const t0 = Date.now();
const bundles = mkdtempSync(join(tmpdir(), 'regatta-release-'));
try {
  execFileSync(
    process.execPath,
    [join(root, 'tools', 'build', 'build.mjs'), ...apps, `--out-dir=${bundles}`],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const t1 = Date.now();
  const node = pinnedNode(root);
  const { layer: base, libraries } = baseLayer(node.path);
  process.stdout.write(
    `release: base layer (node ${node.version}, ${libraries.length} libraries) ${(base.descriptor.size / 1e6).toFixed(1)} MB in ${Date.now() - t1} ms\n`,
  );
  mkdirSync(outDir, { recursive: true });
  const built: BuiltImage[] = [];
  for (const app of apps) {
    const image = writeImage({
      app,
      bundleDir: join(bundles, app),
      base,
      outDir,
      repository,
      version,
      baseFrom: built[0]?.layout,
    });
    built.push(image);
    process.stdout.write(
      `release: ${image.ref} ${image.digest} ${(image.size / 1e6).toFixed(1)} MB -> ${relative(process.cwd(), image.layout) || '.'}\n`,
    );
  }
  writeFileSync(join(outDir, 'images.json'), JSON.stringify(built, null, 2) + '\n');
  process.stdout.write(`release: ${built.length} images in ${Date.now() - t0} ms (bundles ${t1 - t0} ms)\n`);
} finally {
  rmSync(bundles, { recursive: true, force: true });
}
