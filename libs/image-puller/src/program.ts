// The node agent as a program: logger, bus (its own credentials), API client, the node's CRI socket, probes;
// runs until SIGTERM/SIGINT. The app (apps/imagepull-agent) only parses its command line.
import { connectBus } from '@regatta/bus';
import { CriImageClient } from '@regatta/cri';
import { KubeClient } from '@regatta/kube';
import { ProbeServer, readProcessConfig } from '@regatta/runtime';
import { createLogger, startTracing } from '@regatta/telemetry';
import { NodeImageAgent } from './agent.js';
import { CriImageRuntime } from './runtime.js';

export interface NodeAgentArgs {
  nodeName: string;
  /** The node's CRI socket (containerd's `/run/containerd/containerd.sock`, a simulated node's socket). */
  criSocket: string;
  /** `--max-workers-for-pull-image`; ≤ 0 unlimited. */
  maxWorkers: number;
}

export async function runNodeAgent(a: NodeAgentArgs, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const program = 'regatta-imagepull-agent';
  const log = createLogger({ name: program }).child({ node: a.nodeName });
  const config = readProcessConfig(env);
  const client = KubeClient.fromDefault({ fieldManager: program, userAgent: `${program}/${a.nodeName}` });
  const tracing = await startTracing({ serviceName: program, logger: log });
  const bus = await connectBus({ name: `${program}/${a.nodeName}` });
  const cri = new CriImageClient(a.criSocket);
  const agent = new NodeImageAgent({
    nodeName: a.nodeName,
    bus,
    client,
    runtime: new CriImageRuntime(cri),
    maxWorkers: a.maxWorkers,
    log,
    tracer: tracing.tracer,
  });
  const probes = new ProbeServer({ ...config.health, logger: log });
  probes.addReadyzCheck('bus', () => {
    if (bus.nc.isClosed()) throw new Error('NATS connection closed');
  });
  probes.addReadyzCheck('nodeimage-synced', () => {
    if (!agent.hasSynced) throw new Error('the NodeImage has not been read from the bus yet');
  });
  const ac = new AbortController();
  const serving = probes.start(ac.signal);
  await probes.listening();
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  let started: Promise<boolean> | undefined;
  try {
    await checkRuntime(cri, log);
    // a stop signal may come while the agent still waits for its NodeImage (the bucket not there yet): the stop
    // below ends that wait
    started = agent.start().then(() => true);
    if (await Promise.race([started, stopped.then(() => false)])) {
      log.info({ criSocket: a.criSocket, maxWorkers: a.maxWorkers }, 'image puller started');
      await stopped;
    }
  } catch (err) {
    log.error({ err }, `${program} stopped with an error`);
    process.exitCode = 1;
  } finally {
    await agent.stop().catch((err: unknown) => log.warn({ err }, 'agent stop failed'));
    // settled: either it won the race above (a failure was reported there) or the stop released it
    await started?.catch(() => false);
    ac.abort();
    await serving.catch(() => undefined);
    cri.close();
    await bus.close();
    await tracing.shutdown();
  }
}

/** How long the start-up check waits for the CRI socket to answer. */
export const RUNTIME_CHECK_TIMEOUT_MS = 10_000;

/**
 * One ImageFsInfo call before the agent starts: says in the log whether the node's runtime answers, and opens the
 * gRPC channel to it, so the first pull does not pay for the connection (docs/benchmarks-imagepull.md §9). A runtime that
 * does not answer yet is not fatal: the pulls retry with their backoff, as they would after a runtime restart.
 */
export async function checkRuntime(
  cri: Pick<CriImageClient, 'imageFsInfo' | 'socketPath'>,
  log: { info(fields: object, msg: string): void; warn(fields: object, msg: string): void },
): Promise<boolean> {
  const started = Date.now();
  try {
    await cri.imageFsInfo({ timeoutMs: RUNTIME_CHECK_TIMEOUT_MS });
    log.info({ criSocket: cri.socketPath, ms: Date.now() - started }, 'container runtime answers');
    return true;
  } catch (err) {
    log.warn({ err, criSocket: cri.socketPath }, 'container runtime does not answer yet; pulls will retry');
    return false;
  }
}
