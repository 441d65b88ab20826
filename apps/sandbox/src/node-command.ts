// `regatta sandbox node add|remove`: Nodes added to (or removed from) a running sandbox. The sandbox's node
// simulator runs every Node it is given (libs/node-simulator, "Nodes added while it runs"); a Node made with
// `kubectl create` works the same, this command only spares writing its manifest and waits until it is Ready.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, type V1Node } from '@kubernetes/client-node';
import { ENDPOINTS_FILE, waitFor } from '@regatta/local-cluster';
import { UsageError } from './controllers.js';
import { startNodeAgent, stopNodeAgent } from './node-agent.js';

/** The sandbox's simulator registers `node1…N` with the default name prefix. */
const SANDBOX_NODE_PREFIX = 'node';

/** The node was created but the sandbox's simulator did not report it Ready in time. */
export class SandboxNodeError extends Error {
  readonly code = 'REGATTA_SANDBOX_NODE';
}

export interface NodeAddOptions {
  dir: string;
  zone?: string;
  label: string[];
  taint: string[];
  capacity?: string;
  wait: boolean;
}

async function coreApi(dir: string): Promise<CoreV1Api> {
  let kubeconfig: string;
  try {
    kubeconfig = (JSON.parse(await readFile(join(dir, ENDPOINTS_FILE), 'utf8')) as { kubeconfig: string }).kubeconfig;
  } catch (err) {
    throw new UsageError(`${dir} is not the folder of a running sandbox (${(err as Error).message})`);
  }
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return kc.makeApiClient(CoreV1Api);
}

/** The Node manifest of `node add` (kubectl syntax for labels and taints). */
export async function nodeAddManifest(name: string, o: Omit<NodeAddOptions, 'dir' | 'wait'>): Promise<V1Node> {
  // loaded on use, as the node-simulator command does
  const { NodeArgumentError, parseLabelArg, parseTaintArg, simulatedNodeManifest } = await import('@regatta/node-simulator');
  try {
    return simulatedNodeManifest(name, {
      prefix: SANDBOX_NODE_PREFIX,
      ...(o.zone ? { zone: o.zone } : {}),
      labels: Object.fromEntries(o.label.map(parseLabelArg)),
      taints: o.taint.map(parseTaintArg),
      ...(o.capacity ? { capacity: o.capacity } : {}),
    }) as V1Node;
  } catch (err) {
    if (err instanceof NodeArgumentError) throw new UsageError(err.message);
    throw err;
  }
}

export async function sandboxNodeAdd(name: string, o: NodeAddOptions, log: (line: string) => void): Promise<void> {
  const body = await nodeAddManifest(name, o);
  const core = await coreApi(o.dir);
  await core.createNode({ body });
  log(`node ${name} created`);
  if (!o.wait) return;
  await waitFor(
    `node ${name} to be Ready`,
    async () => {
      const n = await core.readNode({ name });
      return n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    },
    { timeoutMs: 30_000, intervalMs: 250 },
  ).catch((err: unknown) => {
    throw new SandboxNodeError(
      `${(err as Error).message}; node simulator log: ${join(o.dir, 'logs', 'node-simulator.log')}`,
      { cause: err },
    );
  });
  log(`node ${name} Ready`);
  // with the imagepull controller every node runs an image pull agent, a joining one too (the chart's DaemonSet)
  const agent = await startNodeAgent(o.dir, name);
  if (agent) log(`${agent} ready`);
}

export async function sandboxNodeRemove(name: string, dir: string, log: (line: string) => void): Promise<void> {
  const core = await coreApi(dir);
  await core.deleteNode({ name });
  log(`node ${name} deleted; its pods are left to the pod garbage collector, as on a real cluster`);
  // its image pull agent goes with it (the DaemonSet's pod of a node that left), bus user included
  const agent = await stopNodeAgent(dir, name);
  if (agent) log(`${agent} stopped`);
}
