// `npm run build` and deploy/Dockerfile: every app is found without registration, a bundle runs with plain node
// and nothing beside it, and the Dockerfile copies exactly what the build writes.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discoverApps } from '../build/apps.mjs';
import { NODE_FLAGS, PROGRAM_ENV } from '../build/node-flags.mjs';
import { buildBundles, copyAlone } from './bundle.js';
import { REPO_ROOT } from './chart.js';
import { IMAGE_USER } from '../release/image.js';

const cleanup: string[] = [];
afterAll(() => {
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

/** A module for `node --import`: at exit, how many of Node's internal undici modules the program loaded. */
const REPORT_INTERNAL_UNDICI =
  'data:text/javascript,process.on("exit",()=>process.stderr.write("internal undici modules loaded: "+' +
  'process.moduleLoadList.filter((m)=>m.includes("undici")).length+"\\n"))';

// building and starting a bundle takes seconds, more on a loaded machine
describe('npm run build', { timeout: 180_000 }, () => {
  it('finds every app with a main (apps/*/src/main.ts), with no list to keep', () => {
    const names = discoverApps(REPO_ROOT).map((a: { name: string }) => a.name);
    const expected = readdirSync(join(REPO_ROOT, 'apps')).filter((d) =>
      existsSync(join(REPO_ROOT, 'apps', d, 'src', 'main.ts')),
    );
    expect(names).toEqual(expected.sort());
    for (const app of ['cloneset', 'asts', 'ads', 'sidecarset', 'watcher', 'sandbox'])
      expect(names).toContain(app);
  });

  it('bundles an app that loads with plain node, no node_modules and no environment: it stops at configuration', () => {
    const bundles = buildBundles(['watcher']);
    cleanup.push(bundles);
    const main = copyAlone(bundles, 'watcher');
    cleanup.push(dirname(main));
    expect(readdirSync(dirname(main)).sort()).toEqual([
      'main.mjs',
      'main.mjs.LEGAL.txt',
      'main.mjs.map',
      'package.json',
    ]);
    // every module is loaded before the program reads its configuration: a missing one would fail first; with the
    // image's Node flags, which the pinned Node must accept (V8 refuses an unknown one before the program starts)
    const run = spawnSync(process.execPath, [...NODE_FLAGS, '--import', REPORT_INTERNAL_UNDICI, main], {
      cwd: dirname(main),
      env: { PATH: '/usr/bin:/bin' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toMatch(/REGATTA_KUBE_CONFIG/);
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/);
    // what it holds from its start (tools/build/start-memory.mjs): Node's own undici is never loaded, and of
    // @kubernetes/client-node only what the program uses is bundled (not its generated models and their serializer)
    expect(run.stderr).toMatch(/internal undici modules loaded: 0\b/);
    // whitespace and syntax are minified, the bundle's string is what the program keeps resident; names are not,
    // so a stack trace still names the functions (docs/adr/0051, fifth amendment)
    const code = readFileSync(main, 'utf8');
    expect(code.split('\n').length).toBeLessThan(code.length / 1000);
    expect(code).toMatch(/async function runProgram\(options,setup\)/);
    expect(code.includes('ObjectSerializer'), 'client-node models in the bundle').toBe(false);
  });
});

describe('deploy/Dockerfile', () => {
  const text = readFileSync(join(REPO_ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const lines = text.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));

  it('is multi-stage on the Node the workspace pins', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(text).toContain(`ARG NODE_VERSION=${pkg.devDependencies['node']}`);
    expect(lines.filter((l) => l.startsWith('FROM node:${NODE_VERSION}'))).toHaveLength(2);
  });

  it('builds the app the APP argument names and copies only its bundle folder', () => {
    expect(lines).toContain('ARG APP');
    expect(lines).toContain('RUN node tools/build/build.mjs "$APP" && test -f "dist/apps/$APP/main.mjs"');
    expect(lines).toContain('COPY --from=build /src/dist/apps/${APP}/ /app/');
    // the flags the benchmarks run the programs with (tools/build/node-flags.mjs)
    expect(lines.at(-1)).toBe(
      `ENTRYPOINT ${JSON.stringify(['node', ...NODE_FLAGS, '/app/main.mjs']).replaceAll(',', ', ')}`,
    );
  });

  it('sets the environment the benchmarks run the programs with', () => {
    for (const [name, value] of Object.entries(PROGRAM_ENV)) expect(lines).toContain(`ENV ${name}=${value}`);
  });

  it('runs as the numeric non-root user of the release images and the chart', () => {
    const user = lines.filter((l) => l.startsWith('USER ')).at(-1);
    expect(user).toBe(`USER ${IMAGE_USER}:${IMAGE_USER}`);
  });
});
