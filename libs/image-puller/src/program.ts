// The node agent as a program: logger, bus (its own credentials), API client, the node's CRI socket, probes;
// runs until SIGTERM/SIGINT. Its duties, each switchable: image pulls (its NodeImage), container recreation (its
// node's ContainerRecreateRequests, libs/containerrecreaterequest) and container meta (its node's pods: the runtime
// meta annotation and restarts for env-from-metadata updates, container-meta-duty.ts). The app (apps/imagepull-agent)
// only parses its command line.
import { connectBus, registerKinds, type KindRef } from '@regatta/bus';
import { KINDS } from '@regatta/api';
import { RecreateDuty } from '@regatta/containerrecreaterequest';
import { CriImageClient, CriRuntimeClient } from '@regatta/cri';
import { KubeClient } from '@regatta/kube';
import { ProbeServer, readProcessConfig } from '@regatta/runtime';
import { createLogger, startTracing } from '@regatta/telemetry';
import { NodeImageAgent } from './agent.js';
import { ContainerMetaDuty } from './container-meta-duty.js';
import { agentInstance, NODEIMAGE_KIND, REGISTRATION_CONTROLLER } from './kinds.js';
import { CriImageRuntime } from './runtime.js';

export interface NodeAgentArgs {
  nodeName: string;
  /** The node's CRI socket (containerd's `/run/containerd/containerd.sock`, a simulated node's socket). */
  criSocket: string;
  /** `--max-workers-for-pull-image`; ≤ 0 unlimited. */
  maxWorkers: number;
  /** The duties this agent runs (default: all). */
  duties?: Partial<NodeAgentDuties>;
}

/** What a node agent does; each can be switched off (`--duties`). */
export interface NodeAgentDuties {
  /** NodeImage pulls through the CRI ImageService. */
  imagePull: boolean;
  /** ContainerRecreateRequests through the CRI RuntimeService. */
  containerRecreate: boolean;
  /**
   * The runtime meta of its node's pods and CRI restarts for env-from-metadata updates. Only where a real kubelet
   * runs the node: the node simulator plays this part on its own nodes (docs/adr/0084), so it is named explicitly
   * (or `all`), never on by default.
   */
  containerMeta: boolean;
}

/** `--duties imagepull,containerrecreate,containermeta`; unset: the first two; `all`: every one. Unknown names are an error. */
export function parseDuties(value: string | undefined): NodeAgentDuties {
  if (value === undefined || value === '')
    return { imagePull: true, containerRecreate: true, containerMeta: false };
  if (value === 'all') return { imagePull: true, containerRecreate: true, containerMeta: true };
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const known = ['imagepull', 'containerrecreate', 'containermeta'];
  const bad = names.filter((n) => !known.includes(n));
  if (bad.length) throw new TypeError(`unknown duty ${bad.join(', ')}; known: ${known.join(', ')}`);
  return {
    imagePull: names.includes('imagepull'),
    containerRecreate: names.includes('containerrecreate'),
    containerMeta: names.includes('containermeta'),
  };
}

export async function runNodeAgent(a: NodeAgentArgs, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const program = 'regatta-imagepull-agent';
  const log = createLogger({ name: program }).child({ node: a.nodeName });
  const config = readProcessConfig(env);
  const client = KubeClient.fromDefault({ fieldManager: program, userAgent: `${program}/${a.nodeName}` });
  const tracing = await startTracing({ serviceName: program, logger: log });
  const bus = await connectBus({ name: `${program}/${a.nodeName}` });
  const duties = { imagePull: true, containerRecreate: true, containerMeta: false, ...a.duties };
  const cri = new CriImageClient(a.criSocket);
  const criRuntime = new CriRuntimeClient(a.criSocket);
  const agent = new NodeImageAgent({
    nodeName: a.nodeName,
    bus,
    client,
    runtime: new CriImageRuntime(cri),
    maxWorkers: a.maxWorkers,
    log,
    tracer: tracing.tracer,
    register: false, // the program announces every duty's kinds under its one registration key
  });
  const recreate = duties.containerRecreate
    ? new RecreateDuty({ nodeName: a.nodeName, bus, client, cri: criRuntime, log, tracer: tracing.tracer })
    : undefined;
  const containerMeta = duties.containerMeta
    ? new ContainerMetaDuty({ nodeName: a.nodeName, bus, client, cri: criRuntime, log })
    : undefined;
  const kinds: KindRef[] = [
    ...(duties.imagePull ? [NODEIMAGE_KIND] : []),
    ...(recreate ? [KINDS.containerrecreaterequests] : []),
    ...(containerMeta ? [KINDS.pods] : []),
  ];
  const registration = registerKinds(bus, REGISTRATION_CONTROLLER, agentInstance(a.nodeName), kinds, {
    onError: (err) => log.debug({ err }, 'registration not written yet'),
  });
  const probes = new ProbeServer({ ...config.health, logger: log });
  probes.addReadyzCheck('bus', () => {
    if (bus.nc.isClosed()) throw new Error('NATS connection closed');
  });
  if (duties.imagePull)
    probes.addReadyzCheck('nodeimage-synced', () => {
      if (!agent.hasSynced) throw new Error('the NodeImage has not been read from the bus yet');
    });
  if (recreate)
    probes.addReadyzCheck('containerrecreaterequests-synced', () => {
      if (!recreate.hasSynced)
        throw new Error('the ContainerRecreateRequests have not been read from the bus yet');
    });
  if (containerMeta)
    probes.addReadyzCheck('pods-synced', () => {
      if (!containerMeta.hasSynced) throw new Error('the pods have not been read from the bus yet');
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
    started = Promise.all([
      duties.imagePull ? agent.start() : undefined,
      recreate?.start(),
      containerMeta?.start(),
    ]).then(() => true);
    if (await Promise.race([started, stopped.then(() => false)])) {
      log.info({ criSocket: a.criSocket, maxWorkers: a.maxWorkers, duties }, 'node agent started');
      await stopped;
    }
  } catch (err) {
    log.error({ err }, `${program} stopped with an error`);
    process.exitCode = 1;
  } finally {
    await agent.stop().catch((err: unknown) => log.warn({ err }, 'agent stop failed'));
    await recreate?.stop().catch((err: unknown) => log.warn({ err }, 'recreate duty stop failed'));
    await containerMeta?.stop().catch((err: unknown) => log.warn({ err }, 'container meta duty stop failed'));
    await registration.stop().catch(() => undefined);
    // settled: either it won the race above (a failure was reported there) or the stop released it
    await started?.catch(() => false);
    ac.abort();
    await serving.catch(() => undefined);
    cri.close();
    criRuntime.close();
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
