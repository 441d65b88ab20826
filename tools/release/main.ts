// `npm run release [-- app ...] [--out-dir=DIR] [--repository=REPO] [--version=V] [--no-cli] [--no-chart] [--cli]
// [--chart] [--krew-uri-base=URL]`: bundles the programs (tools/build/build.mjs) and writes one OCI image layout per
// program into DIR (default dist/images), then `<DIR>/images.json` (ref, digest, size of each). Push one with
// `crane push <DIR>/<app> <ref>`. Unless told not to (or apps are named: then only with --cli / --chart), also the
// CLI as one file (dist/cli/regatta, a krew archive and manifest beside it) and the chart packaged for an OCI
// registry (dist/charts/regatta-<version>.tgz, when helm is built). docs/images.md.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHART_DIR, locateHelm } from '@regatta/local-cluster';
import { packageChart } from './chart.js';
import { cliFile } from './cli.js';
import { krewArchive, krewManifest } from './krew.js';
import { baseLayer, imagePrograms, pinnedNode, writeImage, type BuiltImage } from './release.js';
import { bundledPackageDirs, bundledWorkspaceLibs, npmComponents, sbomOf } from './sbom.js';

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
const withExtras = wanted.length === 0;
const withCli = (withExtras || args.includes('--cli')) && !args.includes('--no-cli');
const withChart = (withExtras || args.includes('--chart')) && !args.includes('--no-chart');

const t0 = Date.now();
const bundles = mkdtempSync(join(tmpdir(), 'regatta-release-'));
try {
  const bundled = withCli ? [...apps, 'sandbox'] : apps;
  execFileSync(
    process.execPath,
    [join(root, 'tools', 'build', 'build.mjs'), ...bundled, `--out-dir=${bundles}`],
    {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const t1 = Date.now();
  const node = pinnedNode(root);
  const { layer: base, libraries, libraryDigests } = baseLayer(node.path);
  process.stdout.write(
    `release: base layer (node ${node.version}, ${libraries.length} libraries) ${(base.descriptor.size / 1e6).toFixed(1)} MB in ${Date.now() - t1} ms\n`,
  );
  mkdirSync(outDir, { recursive: true });
  const built: BuiltImage[] = [];
  for (const app of apps) {
    const sources = (
      JSON.parse(readFileSync(join(bundles, app, 'main.mjs.map'), 'utf8')) as { sources: string[] }
    ).sources;
    const image = writeImage({
      sbom: sbomOf({
        app,
        version,
        nodeVersion: node.version,
        libraries: libraryDigests,
        packages: npmComponents(root, bundledPackageDirs(sources)),
        workspaceLibs: bundledWorkspaceLibs(sources),
      }),
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
  if (withCli) {
    const dir = join(root, 'dist', 'cli');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'regatta');
    const b = join(bundles, 'sandbox');
    const legal = join(b, 'main.mjs.LEGAL.txt');
    writeFileSync(
      file,
      cliFile(
        readFileSync(join(b, 'main.mjs'), 'utf8'),
        existsSync(legal) ? readFileSync(legal, 'utf8') : '',
        version,
      ),
    );
    chmodSync(file, 0o755);
    rmSync(join(dir, 'kubectl-regatta'), { force: true });
    symlinkSync('regatta', join(dir, 'kubectl-regatta'));
    process.stdout.write(
      `release: the CLI as one file -> ${relative(process.cwd(), file)} (and kubectl-regatta)\n`,
    );
    // krew: the archive and its manifest; the archive's download address is where the release publishes it
    const archive = krewArchive(readFileSync(file));
    const archiveName = `regatta-cli-${version}.tar.gz`;
    writeFileSync(join(dir, archiveName), archive);
    const uriBase =
      opt('krew-uri-base') ?? `https://github.com/regatta/regatta/releases/download/v${version}`;
    writeFileSync(
      join(dir, 'regatta.krew.yaml'),
      krewManifest({ version, uri: `${uriBase}/${archiveName}`, archive }),
    );
    process.stdout.write(
      `release: krew plugin -> ${relative(process.cwd(), join(dir, archiveName))}, regatta.krew.yaml\n`,
    );
  }
  if (withChart) {
    let helm: string | undefined;
    try {
      helm = locateHelm();
    } catch (err) {
      process.stdout.write(`release: chart not packaged: ${(err as Error).message}\n`);
    }
    if (helm) {
      const tgz = packageChart(helm, CHART_DIR, join(root, 'dist', 'charts'));
      process.stdout.write(
        `release: the chart -> ${relative(process.cwd(), tgz)} (helm push ${relative(process.cwd(), tgz)} oci://<registry>/charts)\n`,
      );
    }
  }
} finally {
  rmSync(bundles, { recursive: true, force: true });
}
