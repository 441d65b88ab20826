// Which apps `npm run build` bundles: every apps/<name>/ whose package.json declares an Nx `build` target with a
// `main` (the shape tools/new-project.sh gives an app), or that has src/main.ts. New apps need no registration.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @typedef {{ name: string, project: string, dir: string, main: string }} App */

/**
 * The buildable apps under `root`/apps, sorted by name.
 * @param {string} root the repository root
 * @returns {App[]}
 */
export function discoverApps(root) {
  const appsDir = join(root, 'apps');
  if (!existsSync(appsDir)) return [];
  const out = [];
  for (const name of readdirSync(appsDir).sort()) {
    const dir = join(appsDir, name);
    const pkgPath = join(dir, 'package.json');
    if (!existsSync(pkgPath)) continue;
    const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
    const declared = pkg?.nx?.targets?.build?.options?.main;
    const main = declared ? join(root, declared) : join(dir, 'src', 'main.ts');
    if (!existsSync(main)) continue;
    out.push({ name, project: pkg.name, dir, main });
  }
  return out;
}
