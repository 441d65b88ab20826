import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writePrivateFile } from './private-file.js';

const mode = async (path: string) => (await stat(path)).mode & 0o777;

describe('writePrivateFile', () => {
  it('creates the file readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'private-file-'));
    await writePrivateFile(join(dir, 'endpoints.json'), '{"password":"x"}');
    expect(await mode(join(dir, 'endpoints.json'))).toBe(0o600);
    expect(await readFile(join(dir, 'endpoints.json'), 'utf8')).toBe('{"password":"x"}');
  });

  it('replaces a world-readable file instead of writing into it, leaving no temporary file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'private-file-'));
    const path = join(dir, 'pids.json');
    await writeFile(path, 'old', { mode: 0o644 });
    await writePrivateFile(path, 'new');
    expect(await mode(path)).toBe(0o600);
    expect(await readFile(path, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['pids.json']);
  });
});
