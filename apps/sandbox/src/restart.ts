import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ENDPOINTS_FILE,
  restartableNames,
  restartProcessInDir,
  writePrivateFile,
  type ProcessRecord,
} from '@regatta/local-cluster';
import { UsageError } from './controllers.js';
import type { SandboxEndpoints } from './sandbox.js';

/**
 * `regatta sandbox restart`: stops one program of the sandbox in `dir` and starts it again exactly as
 * it was started (see `restartProcessInDir`), then brings `endpoints.json` up to date with its new pid.
 */
export async function sandboxRestart(
  dir: string,
  program: string,
  o: { graceMs: number },
): Promise<{ previous: ProcessRecord | undefined; current: ProcessRecord }> {
  const names = await restartableNames(dir);
  if (!names.includes(program)) {
    throw new UsageError(`unknown program '${program}'; this sandbox runs: ${names.join(', ')}`);
  }
  const { previous, current } = await restartProcessInDir(dir, program, { graceMs: o.graceMs });
  await recordProgramPid(dir, program, current.pid);
  return { previous, current };
}

async function recordProgramPid(dir: string, name: string, pid: number): Promise<void> {
  const path = join(dir, ENDPOINTS_FILE);
  const endpoints = JSON.parse(await readFile(path, 'utf8')) as Partial<SandboxEndpoints>;
  const entry = endpoints.programs?.find((p) => p.name === name);
  if (!entry) return; // a control-plane process: endpoints.json names no pid for it
  entry.pid = pid;
  await writePrivateFile(path, JSON.stringify(endpoints, null, 2) + '\n');
}
