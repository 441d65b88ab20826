#!/usr/bin/env node
// `npm run build [-- app ...] [--out-dir=DIR]`: bundles each app (tools/build/apps.mjs finds them) into one self-contained ES module,
// dist/apps/<name>/main.mjs, that runs with plain `node` (Node 24) and no node_modules: workspace libraries are
// bundled from their TypeScript sources (the `@regatta/source` export condition), third-party packages inlined.
// This is what deploy/Dockerfile copies into its image (docs/operations.md).
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { discoverApps } from './apps.mjs';
import { asciiOnly } from './ascii.mjs';
import { clientNodeWithoutSideEffects, requireHttp } from './start-memory.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const wanted = args.filter((a) => !a.startsWith('-'));
// where the bundles go (default dist/apps): tests build into a folder of their own
const outRoot =
  args.find((a) => a.startsWith('--out-dir='))?.slice('--out-dir='.length) || join(root, 'dist', 'apps');
const all = discoverApps(root);
const unknown = wanted.filter((w) => !all.some((a) => a.name === w));
if (unknown.length > 0) {
  process.stderr.write(
    `build: unknown app(s) ${unknown.join(', ')}; known: ${all.map((a) => a.name).join(', ')}\n`,
  );
  process.exit(2);
}
const apps = wanted.length > 0 ? all.filter((a) => wanted.includes(a.name)) : all;

// ESM bundles of CommonJS packages still call require() for Node built-ins; give them one.
const banner = [
  "import { createRequire as __regattaCreateRequire } from 'node:module';",
  "import { fileURLToPath as __regattaFileURLToPath } from 'node:url';",
  "import { dirname as __regattaDirname } from 'node:path';",
  'const require = __regattaCreateRequire(import.meta.url);',
  'const __filename = __regattaFileURLToPath(import.meta.url);',
  'const __dirname = __regattaDirname(__filename);',
].join('\n');

for (const app of apps) {
  const t0 = Date.now();
  const outDir = join(outRoot, app.name);
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const outfile = join(outDir, 'main.mjs');
  await build({
    entryPoints: [app.main],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    conditions: ['@regatta/source'],
    mainFields: ['module', 'main'],
    // What the program's heap holds of its own code (docs/adr/0051): V8 keeps the whole bundle as one string, two
    // bytes a character once a single character is not ASCII. So the bundle is ASCII only (`asciiOnly` below;
    // esbuild's `charset: 'ascii'` leaves comments and regular expression literals alone). Whitespace and syntax are
    // minified (the CloneSet program's bundle 6.1 -> 4.1 MB, its string as much less resident memory), identifiers
    // are not: the programs run without `--enable-source-maps` (tools/build/node-flags.mjs), so a stack trace names
    // the bundle's functions, which keep their names (docs/adr/0051, fifth amendment). The map, for mapping a trace
    // to sources offline, holds no copy of the sources.
    // libs whose package.json says `"sideEffects": false` lose the modules a program does not use (ADR 0051)
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'linked',
    banner: { js: banner },
    // what each program holds from its start (start-memory.mjs)
    plugins: [requireHttp, clientNodeWithoutSideEffects],
    logLevel: 'warning',
  });
  await writeFile(outfile, asciiOnly(await readFile(outfile, 'utf8')));
  // the folder is an ES module package of its own, so `node main.mjs` needs nothing around it
  await writeFile(
    join(outDir, 'package.json'),
    JSON.stringify({ type: 'module', private: true }, null, 2) + '\n',
  );
  const size = (await stat(outfile)).size;
  process.stdout.write(
    `build: ${app.name} -> ${relative(root, outfile)} (${(size / 1e6).toFixed(1)} MB, ${Date.now() - t0} ms)\n`,
  );
}
