import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnknownProcessError } from './errors.js';
import { freePort } from './ports.js';
import { alive, ManagedProcess, stopRecorded, type ProcessRecord } from './process.js';
import { launchRecordOf, readPidRecords, writeLaunchRecords, writePidRecords } from './records.js';
import { restartProcessInDir } from './restart.js';

// a program that logs its environment's GREETING, serves /readyz on PORT and ignores SIGTERM when STUBBORN=1
const PROGRAM = `
const http = require('node:http');
if (process.env.STUBBORN === '1') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
else process.on('SIGTERM', () => process.exit(0));
http.createServer((_, res) => res.end('ok')).listen(Number(process.env.PORT), '127.0.0.1', () =>
  console.log('started', process.env.GREETING));
`;

const started: number[] = [];
afterEach(async () => {
  await stopRecorded(
    started.map((pid) => ({ name: 'p', pid, logFile: '' })),
    100,
  );
  started.length = 0;
});

/** A folder as a detached cluster leaves it: one running program, its pid and launch records. */
async function folderWithProgram(env: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'restart-test-'));
  const port = await freePort();
  const p = ManagedProcess.start(
    {
      name: 'greeter',
      command: process.execPath,
      args: ['-e', PROGRAM],
      logFile: join(dir, 'greeter.log'),
      env: { PATH: process.env['PATH'] ?? '', PORT: String(port), ...env },
    },
    { keepAfterExit: true },
  );
  started.push(p.pid);
  const other: ProcessRecord = { name: 'other', pid: 999_999, logFile: '' };
  await writeLaunchRecords(dir, [launchRecordOf(p, { url: `http://127.0.0.1:${port}/readyz` })]);
  await writePidRecords(dir, [p.record, other]);
  await expect.poll(async () => readFile(join(dir, 'greeter.log'), 'utf8')).toContain('started');
  return { dir, p, port };
}

describe('restartProcessInDir', () => {
  it('starts the program again with the same environment and log, its new pid in the old one’s place', async () => {
    const { dir, p, port } = await folderWithProgram({ GREETING: 'hello' });
    const { previous, current } = await restartProcessInDir(dir, 'greeter', { graceMs: 2000 });
    started.push(current.pid);
    expect(previous?.pid).toBe(p.pid);
    expect(current.pid).not.toBe(p.pid);
    expect(alive(p.pid)).toBe(false);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    expect(await readFile(join(dir, 'greeter.log'), 'utf8')).toBe('started hello\nstarted hello\n');
    expect((await readPidRecords(dir)).map((r) => [r.name, r.pid])).toEqual([
      ['greeter', current.pid],
      ['other', 999_999],
    ]);
    expect((await stat(join(dir, 'pids.json'))).mode & 0o777).toBe(0o600);
  });

  it('kills a program that ignores SIGTERM once the grace period is over', async () => {
    const { dir, p } = await folderWithProgram({ STUBBORN: '1' });
    const t0 = Date.now();
    const { current } = await restartProcessInDir(dir, 'greeter', { graceMs: 500 });
    started.push(current.pid);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(500);
    expect(alive(p.pid)).toBe(false);
    expect(await readFile(join(dir, 'greeter.log'), 'utf8')).toContain('ignoring SIGTERM');
  });

  it('refuses a name it has no launch record for, listing the names it has', async () => {
    const { dir } = await folderWithProgram({});
    await expect(restartProcessInDir(dir, 'nope')).rejects.toThrow(UnknownProcessError);
    await expect(restartProcessInDir(dir, 'nope')).rejects.toThrow(
      /no program named 'nope' here; known: greeter/,
    );
  });
});
