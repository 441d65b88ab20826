// Regatta's programs in the rollout benchmark (the watcher and the cloneset controller, as the sandbox runs
// them), supervised as a Deployment's kubelet would: a program that exits (a lost leader lease, say) is
// started again after 1 s, at most MAX_RESTARTS times; every restart is reported with its reason. The
// programs bind port 0 and report the address they got (docs/adr/0015).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appEntryPath,
  startProgram,
  startServingProgram,
  type LocalCluster,
  type ManagedProcess,
} from '@regatta/local-cluster';
import { shippedEnv, sleep } from './common.js';
import { MAX_RESTARTS, type Restart } from './rollout-config.js';

/** The last error a program logged (pino JSON lines): its message and its error's message. */
function lastError(logFile: string): string {
  try {
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      if (!lines[i]?.includes('"level":"error"') && !lines[i]?.includes('"level":"fatal"')) continue;
      const e = JSON.parse(lines[i] ?? '{}') as { msg?: string; err?: { message?: string } };
      return [e.msg, e.err?.message].filter(Boolean).join(': ');
    }
  } catch {
    // no log, or not JSON: say so below
  }
  return 'no error logged';
}

/** A supervised program: `p` is its current process (a new one after each restart). */
export interface Supervised {
  name: string;
  p: ManagedProcess;
  /** The first instance's `http://127.0.0.1:PORT` (`/healthz`, `/readyz`, `/metrics`); a restarted one's is not known. */
  health: string;
}

export class ProgramSupervisor {
  /** Programs that exited and were started again (none in a healthy run). */
  readonly restarts: Restart[] = [];
  /** What the benchmark was doing, named in a restart's report. */
  phase = 'start-up';
  private readonly programs: Supervised[] = [];
  private stopping = false;

  constructor(
    private readonly o: {
      cluster: LocalCluster;
      logsDir: string;
      /** The programs' environment (kubeconfig, bus, …); each gets `POD_NAME=bench-<name>` too. */
      env: NodeJS.ProcessEnv;
      log: (line: string) => void;
    },
  ) {}

  /**
   * Starts `apps/<app>` as `name` and waits until it answers `probe`; supervised from then on. With `webhook` it
   * serves its admission webhooks on port 0 too (a restarted instance as well), and registers them itself; `env` is
   * this program's on top of the supervisor's (REGATTA_NODE_ARGS for other Node flags, say).
   */
  async start(
    name: string,
    app: string,
    probe: '/healthz' | '/readyz',
    o: { webhook?: boolean; env?: NodeJS.ProcessEnv } = {},
  ): Promise<Supervised> {
    const { cluster, log } = this.o;
    const logFile = join(this.o.logsDir, `${name}.log`);
    const env = { ...this.o.env, ...o.env, POD_NAME: `bench-${name}` };
    const entry = appEntryPath(app);
    const webhook = o.webhook ?? false;
    const first = await startServingProgram({ name, entry, logFile, env, probe, webhook, timeoutMs: 90_000 });
    await cluster.adopt(first.process);
    const s: Supervised = { name, p: first.process, health: first.health };
    this.programs.push(s);
    void (async () => {
      for (;;) {
        const code = await s.p.exited;
        if (this.stopping) return;
        const r = { name, phase: this.phase, atMs: Date.now(), code, reason: lastError(logFile) };
        this.restarts.push(r);
        log(`${name} EXITED (code ${code}) during ${this.phase}: ${r.reason}`);
        if (this.restarts.length > MAX_RESTARTS)
          return log(`${name}: not restarted (more than ${MAX_RESTARTS})`);
        await sleep(1000);
        if (this.stopping) return;
        // nobody probes a restarted program, so it need not report its address
        s.p = startProgram({
          name,
          entry,
          logFile,
          env: {
            ...env,
            REGATTA_HEALTH_ADDR: '127.0.0.1:0',
            ...(webhook ? { REGATTA_WEBHOOK_ADDR: '127.0.0.1:0' } : {}),
          },
        });
        await cluster.adopt(s.p);
        log(`${name} restarted`);
      }
    })();
    return s;
  }

  /** No program is started again from now on. */
  release(): void {
    this.stopping = true;
  }

  /** Stops every program, newest first, and starts none again. */
  async stopAll(): Promise<void> {
    this.release();
    for (const s of this.programs.reverse()) await s.p.stop();
  }
}

/**
 * A supervisor for the programs of one benchmark with the environment they all share: the run's cluster and bus,
 * the bus prefix `busPrefix`, Leases in `regatta-system`, info logs, no tracing export; `env` adds to it.
 */
export function benchSupervisor(
  o: { cluster: LocalCluster; logsDir: string; log: (line: string) => void },
  busPrefix: string,
  env: NodeJS.ProcessEnv = {},
): ProgramSupervisor {
  const { kubeconfig, nats, natsServers } = o.cluster.endpoints;
  return new ProgramSupervisor({
    cluster: o.cluster,
    logsDir: o.logsDir,
    log: o.log,
    env: {
      KUBECONFIG: kubeconfig,
      // every server of a clustered bus (--bus-replicas)
      NATS_URL: natsServers?.map((s) => s.url).join(',') ?? nats ?? '',
      REGATTA_BUS_PREFIX: busPrefix,
      REGATTA_LEASE_NAMESPACE: 'regatta-system',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      ...shippedEnv(),
      ...env,
    },
  });
}
