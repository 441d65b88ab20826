import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ComponentStartError } from './errors.js';

export interface ProcessSpec {
  /** Short name used in messages and the pid file ("etcd", "kube-apiserver", …). */
  name: string;
  command: string;
  args: string[];
  logFile: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** What is written to the pid file so another process (`regatta sandbox down`) can stop it. */
export interface ProcessRecord {
  name: string;
  pid: number;
  logFile: string;
}

const live = new Set<ManagedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // last resort: if this Node process exits without stopping its children, take them down with it
  process.on('exit', () => {
    for (const p of live) p.killNow();
  });
}

/**
 * A child process in its own process group, with output appended to a log file.
 * `stop()` sends SIGTERM to the group, then SIGKILL after a grace period.
 */
export class ManagedProcess {
  readonly record: ProcessRecord;
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private exitCode: number | null | undefined;

  private constructor(
    readonly spec: ProcessSpec,
    keepAfterExit: boolean,
  ) {
    const fd = openSync(spec.logFile, 'a');
    try {
      this.child = spawn(spec.command, spec.args, {
        cwd: spec.cwd,
        env: spec.env ?? process.env,
        stdio: ['ignore', fd, fd],
        detached: true,
      });
    } finally {
      closeSync(fd);
    }
    if (this.child.pid === undefined) {
      throw new ComponentStartError(spec.name, `could not spawn ${spec.command}`, spec.logFile);
    }
    this.record = { name: spec.name, pid: this.child.pid, logFile: spec.logFile };
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? null : 0);
        live.delete(this);
        resolve(this.exitCode);
      });
    });
    if (keepAfterExit) {
      this.child.unref();
    } else {
      live.add(this);
      installExitHook();
    }
  }

  /**
   * Starts a process. With `keepAfterExit`, it outlives this Node process (sandbox --detach);
   * otherwise it is killed when this process exits.
   */
  static start(spec: ProcessSpec, { keepAfterExit = false } = {}): ManagedProcess {
    return new ManagedProcess(spec, keepAfterExit);
  }

  get pid(): number {
    return this.record.pid;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /** Throws ComponentStartError if the process has already exited. */
  assertRunning(): void {
    if (!this.running) {
      throw new ComponentStartError(this.spec.name, `exited with code ${this.exitCode}`, this.spec.logFile);
    }
  }

  killNow(): void {
    signalGroup(this.pid, 'SIGKILL');
  }

  async stop(graceMs = 5000): Promise<void> {
    if (!this.running) return;
    // a detached child is unref'd; hold the event loop open until it has really exited
    this.child.ref();
    signalGroup(this.pid, 'SIGTERM');
    const done = await Promise.race([this.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!done) {
      signalGroup(this.pid, 'SIGKILL');
      await this.exited;
    }
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false; // already gone
    }
  }
}

/** Whether a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops processes recorded by another Node process (the pid file of a detached sandbox), newest first. */
export async function stopRecorded(records: ProcessRecord[], graceMs = 5000): Promise<void> {
  for (const r of [...records].reverse()) {
    if (!alive(r.pid)) continue;
    signalGroup(r.pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (alive(r.pid) && Date.now() < deadline) await sleep(50);
    if (!alive(r.pid)) continue;
    signalGroup(r.pid, 'SIGKILL');
    // gone before returning, so whatever starts next finds its ports free
    const killDeadline = Date.now() + 5000;
    while (alive(r.pid) && Date.now() < killDeadline) await sleep(20);
  }
}
