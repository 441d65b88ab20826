import { UnknownProcessError } from './errors.js';
import { ManagedProcess, stopRecorded, type ProcessRecord } from './process.js';
import {
  readLaunchRecords,
  readPidRecords,
  waitReady,
  writePidRecords,
  type LaunchRecord,
} from './records.js';

export interface RestartOptions {
  /** How long the running process gets to exit after SIGTERM before SIGKILL. Default 10 s. */
  graceMs?: number;
  /** How long the new process gets to become ready. Default 90 s. */
  readyTimeoutMs?: number;
}

/**
 * Restarts one process of a cluster started by another Node process (a detached sandbox): stops the
 * running one (SIGTERM to its process group, SIGKILL after `graceMs`), starts it again from its launch
 * record (same command line, environment and log file, appended to), outliving this process, records
 * the new pid in `pids.json` in the old one's place (so `down` still stops in start order), and
 * resolves once it is ready. Throws UnknownProcessError for a name the folder has no launch record for.
 */
export async function restartProcessInDir(
  dir: string,
  name: string,
  { graceMs = 10_000, readyTimeoutMs = 90_000 }: RestartOptions = {},
): Promise<{ previous: ProcessRecord | undefined; current: ProcessRecord; launch: LaunchRecord }> {
  const launch = (await readLaunchRecords(dir)).find((l) => l.name === name);
  if (!launch) throw new UnknownProcessError(name, await restartableNames(dir));
  const records = await readPidRecords(dir);
  const i = records.findIndex((r) => r.name === name);
  const previous = records[i];
  if (previous) await stopRecorded([previous], graceMs);

  const p = ManagedProcess.start(
    {
      name: launch.name,
      command: launch.command,
      args: launch.args,
      env: launch.env,
      logFile: launch.logFile,
      ...(launch.cwd !== undefined && { cwd: launch.cwd }),
    },
    { keepAfterExit: true },
  );
  // record the new pid before waiting: even if it never becomes ready, `down` stops it
  if (i >= 0) records[i] = p.record;
  else records.push(p.record);
  await writePidRecords(dir, records);
  await waitReady(p, launch.ready, readyTimeoutMs);
  return { previous, current: p.record, launch };
}

/** Names of the processes `restartProcessInDir` can restart in this folder, in start order. */
export async function restartableNames(dir: string): Promise<string[]> {
  return (await readLaunchRecords(dir)).map((l) => l.name);
}
