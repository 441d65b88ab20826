/**
 * The bootstrap every Regatta program shares (watcher and controllers): logger and tracing, the process
 * configuration, API clients, the bus, metrics and probes, a Manager campaigning for the Lease `regatta-<name>`,
 * and a graceful shutdown that closes the bus and flushes traces. The program adds its runnables in `setup`.
 */
import { Registry, collectDefaultMetrics } from 'prom-client';
import { connectBus, type Bus } from '@regatta/bus';
import { KubeClient } from '@regatta/kube';
import {
  LeaseNotHeldError,
  Manager,
  ProbeServer,
  kubeLeaseStore,
  readProcessConfig,
  type Logger,
  type ProcessConfig,
} from '@regatta/runtime';
import { createLogger, startTracing, type Tracing } from '@regatta/telemetry';
import { registerNatsMetrics, restClientMetrics } from './client-metrics.js';

export interface Program {
  /** `regatta-<name>`: service name, logger name, Lease name, field manager, user agent. */
  readonly program: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger & { error(obj: object, msg: string): void };
  readonly tracing: Tracing;
  readonly config: ProcessConfig;
  readonly client: KubeClient;
  readonly bus: Bus;
  readonly registry: Registry;
  readonly probes: ProbeServer;
  readonly manager: Manager;
  /** Runs at shutdown, before the bus closes (last registered, first run). */
  onStop(fn: () => Promise<void>): void;
}

/** Starts the program `regatta-<name>`, lets `setup` add its parts, and runs until SIGTERM/SIGINT or a failure. */
export async function runProgram(
  options: { name: string; env?: NodeJS.ProcessEnv },
  setup: (p: Program) => void | Promise<void>,
): Promise<void> {
  const env = options.env ?? process.env;
  const program = `regatta-${options.name}`;
  const log = createLogger({ name: program });
  const tracing = await startTracing({ serviceName: program, logger: log });
  const config = readProcessConfig(env);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const onResponse = restClientMetrics(registry);
  // the replica in the user agent, so an audit log tells two replicas' writes apart (chaos R9, a paused leader); its
  // writes fenced by the lease: none once this replica has led and its lease is stale or lost (Manager.mayWrite)
  const fence: { manager?: Manager } = {};
  const client = KubeClient.fromDefault({
    fieldManager: program,
    userAgent: `${program}/${config.identity}`,
    onResponse,
    writeGate: () => {
      if (fence.manager && !fence.manager.mayWrite()) throw new LeaseNotHeldError(`${config.leaseNamespace}/${program}`);
    },
  });
  // the Lease is renewed over its own connection: a burst of writes must never delay a renewal past its deadline
  const leaseClient = KubeClient.fromDefault({
    fieldManager: program,
    userAgent: `${program}/${config.identity}/leader-election`,
    onResponse,
  });
  const bus = await connectBus({ name: `${program}/${config.identity}` });
  registerNatsMetrics(registry, bus.nc, log);
  const probes = new ProbeServer({ ...config.health, registry, logger: log });
  probes.addReadyzCheck('bus', () => {
    if (bus.nc.isClosed()) throw new Error('NATS connection closed');
  });
  const manager = new Manager({
    logger: log,
    probes,
    leaderElection: {
      store: kubeLeaseStore(leaseClient),
      namespace: config.leaseNamespace,
      name: program,
      identity: config.identity,
      // a standby takes over within ~11 s of the leader dying (lease + one jittered retry)
      leaseDurationMs: 8_000,
      renewDeadlineMs: 6_000,
      retryPeriodMs: 1_500,
    },
  });
  fence.manager = manager;
  const stops: (() => Promise<void>)[] = [];
  try {
    await setup({
      program,
      env,
      log,
      tracing,
      config,
      client,
      bus,
      registry,
      probes,
      manager,
      onStop: (fn) => stops.unshift(fn),
    });
    await manager.start();
  } catch (err) {
    log.error({ err }, `${program} stopped with an error`);
    process.exitCode = 1;
  } finally {
    for (const stop of stops) await stop().catch((err: unknown) => log.warn({ err }, 'shutdown step failed'));
    await bus.close();
    await tracing.shutdown();
  }
}
