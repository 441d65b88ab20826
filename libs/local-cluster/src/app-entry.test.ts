import { describe, expect, it } from 'vitest';
import { appEntryPath, entryCommand } from './programs.js';

describe('appEntryPath and entryCommand', () => {
  it('runs an app from its sources through tsx by default', () => {
    const entry = appEntryPath('cloneset', {});
    expect(entry).toMatch(/\/apps\/cloneset\/src\/main\.ts$/);
    expect(entryCommand(entry).args).toContain('--conditions=@regatta/source');
  });

  it('runs the built bundle with plain node when REGATTA_APP_BUNDLES names the build folder', () => {
    const entry = appEntryPath('cloneset', { REGATTA_APP_BUNDLES: 'dist/apps' });
    expect(entry).toMatch(/\/dist\/apps\/cloneset\/main\.mjs$/);
    expect(entryCommand(entry, ['--x'], {})).toEqual({ command: process.execPath, args: [entry, '--x'] });
    expect(appEntryPath('watcher', { REGATTA_APP_BUNDLES: '/opt/regatta' })).toBe(
      '/opt/regatta/watcher/main.mjs',
    );
  });

  it('gives a bundle the Node flags of REGATTA_NODE_ARGS on its command line, not a program from sources', () => {
    const env = { REGATTA_NODE_ARGS: '--optimize-for-size  --max-semi-space-size=4' };
    const bundle = appEntryPath('cloneset', { REGATTA_APP_BUNDLES: 'dist/apps' });
    expect(entryCommand(bundle, [], env).args).toEqual(['--optimize-for-size', '--max-semi-space-size=4', bundle]);
    expect(entryCommand(appEntryPath('cloneset', {}), [], env).args).not.toContain('--optimize-for-size');
  });
});
