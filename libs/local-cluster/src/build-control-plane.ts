/**
 * Builds missing control-plane binaries there and then (tools/controlplane/build.sh), drawing a progress line that
 * keeps moving (build-progress.ts): on a terminal one line redrawn every quarter second, elsewhere a line every 30 s.
 * The script's own output goes to a log in the cache folder, named when the build fails.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cacheDir } from './binaries.js';
import {
  missingComponents,
  observeLine,
  renderProgress,
  startBuild,
  type BuildComponent,
  type BuildState,
} from './build-progress.js';
import { LocalClusterError } from './errors.js';

const BUILD_SCRIPT = fileURLToPath(new URL('../../../tools/controlplane/build.sh', import.meta.url));

export interface BuildOptions {
  /** Default: the control plane's components that are not built yet. */
  components?: BuildComponent[];
  cache?: string;
  /** Where the progress is drawn; default stderr. */
  out?: NodeJS.WriteStream;
  /** Plain lines (no redraw) even on a terminal. */
  plain?: boolean;
}

/** Builds what is missing; resolves with what was built ([] when nothing was missing). */
export async function buildControlPlane(o: BuildOptions = {}): Promise<BuildComponent[]> {
  const cache = o.cache ?? cacheDir();
  const components = o.components ?? missingComponents(cache);
  if (components.length === 0) return [];
  const out = o.out ?? process.stderr;
  const redraw = !o.plain && out.isTTY === true;
  await mkdir(cache, { recursive: true });
  const logFile = join(cache, `build-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const log = createWriteStream(logFile);
  let state: BuildState = startBuild(components, Date.now());
  out.write(`regatta: building ${components.join(', ')} from Go modules, once (log: ${logFile})\n`);

  const child = spawn('bash', [BUILD_SCRIPT, ...components], {
    env: { ...process.env, REGATTA_CACHE: cache, PATH: `${process.env['PATH'] ?? ''}:/usr/local/go/bin` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream.pipe(log, { end: false });
    createInterface({ input: stream }).on('line', (line) => {
      state = observeLine(state, line, Date.now());
    });
  }
  let lastPlain = 0;
  const draw = () => {
    const now = Date.now();
    if (redraw) out.write(`\r\x1b[K${renderProgress(state, now)}`);
    else if (now - lastPlain >= 30_000) {
      lastPlain = now;
      out.write(`${renderProgress(state, now)}\n`);
    }
  };
  const timer = setInterval(draw, redraw ? 250 : 1000);
  draw();
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  clearInterval(timer);
  await new Promise<void>((resolve) => log.end(resolve));
  if (redraw) out.write('\r\x1b[K');
  if (code !== 0) {
    throw new LocalClusterError(
      code === 3 ? 'REGATTA_GO_MISSING' : 'REGATTA_BUILD_FAILED',
      code === 3
        ? `Go is needed once, to build the local control plane: install Go 1.26 or newer and run this again (${logFile})`
        : `building ${components.join(', ')} failed (exit ${code}); see ${logFile}`,
    );
  }
  out.write(`${renderProgress({ ...state, current: components.length }, Date.now())}\n`);
  return components;
}
