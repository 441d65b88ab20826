import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeAllBut } from './kept-files.js';

describe('removeAllBut', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const files = [
    'bundles/a.mjs',
    'coldstart/audit.log',
    'coldstart/logs/regatta-setup/cloneset.log',
    'coldstart/etcd/x',
  ];
  const make = async () => {
    dir = await mkdtemp(join(tmpdir(), 'kept-files-'));
    for (const f of files) {
      await mkdir(join(dir, f, '..'), { recursive: true });
      await writeFile(join(dir, f), 'x');
    }
  };

  it.each([
    // kept (relative to the run's folder) → files left
    [['coldstart/logs'], ['coldstart/logs/regatta-setup/cloneset.log']],
    [
      ['coldstart/logs', 'bundles'],
      ['bundles/a.mjs', 'coldstart/logs/regatta-setup/cloneset.log'],
    ],
    [['coldstart/logs/regatta-setup/cloneset.log'], ['coldstart/logs/regatta-setup/cloneset.log']],
    [['.'], files],
  ])('keeping %j leaves %j', async (keep, left) => {
    await make();
    await removeAllBut(
      dir,
      keep.map((k) => join(dir, k)),
    );
    expect(files.filter((f) => existsSync(join(dir, f)))).toEqual(left);
  });

  it('removes the folder when nothing is kept', async () => {
    await make();
    await removeAllBut(dir, []);
    expect(existsSync(dir)).toBe(false);
  });
});
