// The programs the chaos suite runs and kills: Regatta's programs from their bundles (`npm run build`'s
// main.mjs, what ships), each kept running as a Deployment's kubelet would (an exit the suite did not cause is a
// crash: counted, and the program is started again after 1 s), and nats-server, killed and started again from the
// cluster's launch record (libs/local-cluster restartProcessInDir). Every kill is SIGKILL to the process group.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  alive,
  readPidRecords,
  restartProcessInDir,
  startServingProgram,
  type ManagedProcess,
} from '@regatta/local-cluster';

export interface Crash {
  name: string;
  at: number;
  code: number | null;
  /**
   * The program stopped because it lost its leader lease (the last lines of its log say REGATTA_LEADER_ELECTION_LOST):
   * what a controller does, as kube-controller-manager does, when the API server is unreachable past its renew
   * deadline. R8 counts these apart from crashes; every other check counts them as crashes.
   */
  leaseLost: boolean;
}

/** Whether the end of a program's log says it stopped after losing its leader lease. */
async function stoppedOnLostLease(logFile: string): Promise<boolean> {
  try {
    const text = await readFile(logFile, 'utf8');
    return text.slice(-8192).includes('REGATTA_LEADER_ELECTION_LOST');
  } catch {
    return false;
  }
}

/** When a killed process went down and when it was ready again (ms, the suite's clock). */
export interface Outage {
  at: number;
  backAt: number;
}

export class SupervisedProgram {
  p: ManagedProcess | undefined;
  /** `http://127.0.0.1:PORT` of the running process's probes and `/metrics`. */
  health: string | undefined;
  readonly crashes: Crash[] = [];
  private expectExit = false;
  private stopping = false;
  private paused = false;
  /** A start under way (a kill or stop waits for it, so no process escapes them). */
  private starting: Promise<void> | undefined;
  /** Bumped by every kill and stop: a restart loop of an earlier epoch gives up. */
  private epoch = 0;

  constructor(
    readonly name: string,
    private readonly o: {
      entry: string;
      env: NodeJS.ProcessEnv;
      logsDir: string;
      probe: '/healthz' | '/readyz';
      /** Serve admission webhooks on port 0 (the kit registers their configurations). */
      webhook?: boolean;
      now: () => number;
      log: (line: string) => void;
    },
  ) {}

  get pid(): number {
    return this.p?.pid ?? -1;
  }

  /** Starts the program and waits until it answers its probe; supervised from then on. */
  async start(): Promise<void> {
    const run = this.startOnce();
    this.starting = run.catch(() => undefined);
    await run;
  }

  private async startOnce(): Promise<void> {
    const { entry, env, logsDir, probe } = this.o;
    const logFile = join(logsDir, `${this.name}.log`);
    const s = await startServingProgram({
      name: this.name,
      entry,
      env: { ...env, POD_NAME: `chaos-${this.name}` },
      logFile,
      probe,
      webhook: this.o.webhook ?? false,
      timeoutMs: 120_000,
    });
    const p = s.process;
    this.p = p;
    this.health = s.health;
    this.expectExit = false;
    void p.exited.then(async (code) => {
      if (this.expectExit || this.stopping || this.p !== p) return;
      const leaseLost = await stoppedOnLostLease(logFile);
      this.crashes.push({ name: this.name, at: this.o.now(), code, leaseLost });
      this.o.log(
        `${this.name} EXITED on its own (code ${code}${leaseLost ? ', its leader lease lost' : ''}); starting it again in 1 s`,
      );
      const epoch = this.epoch;
      await sleep(1000);
      if (!this.stopping && this.epoch === epoch && this.p === p) await this.startUntilUp(epoch);
    });
  }

  /**
   * Starts the program as a kubelet would: again and again (1 s, doubling to 16 s) until it answers its probe, or
   * the suite kills or stops it (a later epoch).
   */
  private async startUntilUp(epoch: number): Promise<void> {
    for (let delayMs = 1000; ; delayMs = Math.min(2 * delayMs, 16_000)) {
      try {
        await this.start();
        return;
      } catch (err) {
        this.o.log(`${this.name}: ${String(err)}; starting it again in ${delayMs / 1000} s`);
      }
      await sleep(delayMs);
      if (this.stopping || this.epoch !== epoch) return;
    }
  }

  /** kill -9, not started again (until `start`); the time of the kill. */
  async kill(): Promise<number> {
    const at = this.o.now();
    this.epoch++;
    await this.starting;
    const p = this.p;
    if (p) {
      this.expectExit = true;
      p.killNow();
      await p.exited;
    }
    return at;
  }

  /** kill -9; started again `downMs` later (the suite's supervisor), resolved once it answers its probe (or is stopped). */
  async kill9(downMs: number): Promise<Outage> {
    const at = await this.kill();
    await sleep(downMs);
    await this.startUntilUp(this.epoch);
    return { at, backAt: this.o.now() };
  }

  /** SIGSTOP (a hung program): alive, holding its connections, doing nothing. */
  pause(): void {
    if (this.p && !this.paused) process.kill(this.p.pid, 'SIGSTOP');
    this.paused = true;
  }

  resume(): void {
    if (this.p && this.paused) process.kill(this.p.pid, 'SIGCONT');
    this.paused = false;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.epoch++;
    await this.starting;
    this.resume();
    await this.p?.stop();
  }
}

/**
 * kill -9 a process of the cluster (`nats-server`, `kube-apiserver`, `etcd`: the names of its launch records); started
 * again `downMs` later from its launch record, resolved once it is ready.
 */
export async function killClusterProcess(
  dir: string,
  name: string,
  downMs: number,
  now: () => number,
): Promise<Outage> {
  const at = now();
  const rec = (await readPidRecords(dir)).find((r) => r.name === name);
  if (rec && alive(rec.pid)) {
    try {
      process.kill(-rec.pid, 'SIGKILL');
    } catch {
      process.kill(rec.pid, 'SIGKILL');
    }
    while (alive(rec.pid)) await sleep(20);
  }
  await sleep(downMs);
  await restartProcessInDir(dir, name, { graceMs: 0, readyTimeoutMs: 90_000 });
  return { at, backAt: now() };
}

/** kill -9 nats-server; started again `downMs` later, resolved once it is healthy. */
export function killNats(dir: string, downMs: number, now: () => number): Promise<Outage> {
  return killClusterProcess(dir, 'nats-server', downMs, now);
}
