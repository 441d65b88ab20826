/**
 * `regatta version`: the CLI's version. A released single-file CLI is told it by tools/release (REGATTA_VERSION, set
 * before the bundle runs); run from source it is the sandbox package's version marked `(source)`.
 */
import { readFileSync } from 'node:fs';

export interface VersionInfo {
  version: string;
  node: string;
  platform: string;
}

export function cliVersion(env: NodeJS.ProcessEnv = process.env): VersionInfo {
  const released = env['REGATTA_VERSION'];
  return {
    version: released || `${sourceVersion()} (source)`,
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
  };
}

function sourceVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch (e) {
    // a bundle run without REGATTA_VERSION has no package.json next to it
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'unknown';
    throw e;
  }
}
