// Builds app bundles (tools/build/build.mjs) into a folder of a test's own, and copies one somewhere with no
// node_modules above it, as deploy/Dockerfile copies it into its image.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './chart.js';

/** Bundles `apps` into a fresh temporary folder; returns it (one sub-folder per app). */
export function buildBundles(apps: string[]): string {
  const out = mkdtempSync(join(tmpdir(), 'regatta-bundles-'));
  execFileSync(
    process.execPath,
    [join(REPO_ROOT, 'tools', 'build', 'build.mjs'), ...apps, `--out-dir=${out}`],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return out;
}

/** Copies a built app folder to a new temporary folder, alone; returns the path of its main.mjs. */
export function copyAlone(bundles: string, app: string): string {
  const dir = mkdtempSync(join(tmpdir(), `regatta-alone-${app}-`));
  cpSync(join(bundles, app), dir, { recursive: true });
  return join(dir, 'main.mjs');
}
