// What a cluster's folder records about the processes it started: `pids.json` (what `sandbox down`
// stops) and `programs.json` (how to start each one again, for `sandbox restart`). Both are written
// 0600 and atomically: the launch records hold every process's environment, bus passwords included.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ComponentStartError, LocalClusterError } from './errors.js';
import { httpGet } from './http.js';
import type { ManagedProcess, ProcessRecord } from './process.js';
import { writePrivateFile } from './private-file.js';

export const PIDS_FILE = 'pids.json';
export const LAUNCH_FILE = 'programs.json';

/** A GET that answers 200 once the process is ready. */
export interface ReadyProbe {
  url: string;
  /** PEM file of the CA that signed the server's certificate. */
  caFile?: string;
  /** Accept the self-signed certificate a component made for itself (controller-manager, scheduler). */
  insecure?: boolean;
}

/** How a process was started, so that it can be started again exactly so. */
export interface LaunchRecord {
  name: string;
  command: string;
  args: string[];
  /** The whole environment the process got. */
  env: Record<string, string>;
  cwd?: string;
  logFile: string;
  /** Absent: the process counts as ready while it runs. */
  ready?: ReadyProbe;
}

/** The folder holds no cluster started with pid and launch records (or it has been cleaned up). */
export class NoClusterError extends LocalClusterError {
  constructor(dir: string, file: string) {
    super(
      'REGATTA_NO_CLUSTER',
      `${join(dir, file)} does not exist: no sandbox was started in ${dir}. ` +
        `Start one with 'regatta sandbox up --detach --dir ${dir}'.`,
    );
  }
}

export function launchRecordOf(p: ManagedProcess, ready?: ReadyProbe): LaunchRecord {
  const env = Object.fromEntries(
    Object.entries(p.spec.env ?? process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  return {
    name: p.spec.name,
    command: p.spec.command,
    args: [...p.spec.args],
    env,
    ...(p.spec.cwd !== undefined && { cwd: p.spec.cwd }),
    logFile: p.spec.logFile,
    ...(ready && { ready }),
  };
}

async function readJson<T>(dir: string, file: string): Promise<T> {
  try {
    return JSON.parse(await readFile(join(dir, file), 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new NoClusterError(dir, file);
    throw err;
  }
}

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

export const readPidRecords = (dir: string) => readJson<ProcessRecord[]>(dir, PIDS_FILE);
export const writePidRecords = (dir: string, records: ProcessRecord[]) =>
  writePrivateFile(join(dir, PIDS_FILE), json(records));
export const readLaunchRecords = (dir: string) => readJson<LaunchRecord[]>(dir, LAUNCH_FILE);
export const writeLaunchRecords = (dir: string, records: LaunchRecord[]) =>
  writePrivateFile(join(dir, LAUNCH_FILE), json(records));

/** One probe: true on HTTP 200, false on any other answer or a connection error. */
export async function probeReady(probe: ReadyProbe): Promise<boolean> {
  const tls = probe.insecure
    ? { rejectUnauthorized: false }
    : probe.caFile
      ? { ca: await readFile(probe.caFile, 'utf8') }
      : {};
  return httpGet(probe.url, tls, 2000).then(
    (r) => r.status === 200,
    () => false,
  );
}

/**
 * Resolves once `p` answers its probe (or, without one, is still running a moment after its start);
 * throws ComponentStartError, naming its log, as soon as it exits or when `timeoutMs` passes.
 */
export async function waitReady(p: ManagedProcess, probe: ReadyProbe | undefined, timeoutMs: number) {
  const began = Date.now();
  const deadline = began + timeoutMs;
  for (;;) {
    p.assertRunning();
    if (probe ? await probeReady(probe) : Date.now() - began >= 1000) return;
    if (Date.now() > deadline) {
      throw new ComponentStartError(
        p.spec.name,
        `not ready after ${timeoutMs} ms${probe ? ` (${probe.url} does not answer 200)` : ''}`,
        p.spec.logFile,
      );
    }
    await sleep(100);
  }
}
