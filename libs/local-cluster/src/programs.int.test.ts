import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComponentStartError } from './errors.js';
import { startServingProgram, type ServingProgram } from './programs.js';

const entry = fileURLToPath(new URL('./testing/serving-program.ts', import.meta.url));
let dir: string;
const started: ServingProgram[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'regatta-programs-'));
});
afterAll(async () => {
  for (const p of started) await p.process.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('startServingProgram (docs/adr/0015)', () => {
  it('starts programs on port 0 at the same moment: each reports its own addresses, no port is picked beforehand', async () => {
    const programs = await Promise.all(
      ['a', 'b', 'c'].map((n) =>
        startServingProgram({ name: n, entry, env: {}, logFile: join(dir, `${n}.log`), webhook: n !== 'c' }),
      ),
    );
    started.push(...programs);
    const ports = programs.flatMap((p) => [p.health, p.webhook].filter(Boolean));
    expect(new Set(ports).size).toBe(5);
    for (const p of programs) expect((await fetch(`${p.health}/healthz`)).status).toBe(200);
    expect(programs[2]!.webhook).toBeUndefined();
    expect((await stat(join(dir, 'a.addresses.json'))).mode & 0o777).toBe(0o600);
  });

  it('fails at once, naming the log, when the program exits before it reports', async () => {
    const t0 = Date.now();
    const failed = startServingProgram({
      name: 'early-exit',
      entry,
      env: { FIXTURE_EXIT: '3' },
      logFile: join(dir, 'early-exit.log'),
    });
    await expect(failed).rejects.toBeInstanceOf(ComponentStartError);
    await expect(failed).rejects.toThrow(/early-exit did not start: exited with code 3.*early-exit\.log/);
    expect(Date.now() - t0).toBeLessThan(30_000);
  });
});
