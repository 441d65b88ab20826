// `sandbox up --real-nodes N` (docs/real-nodes.md): real nodes beside the simulated ones, each a kubelet with its own
// containerd, joined to the sandbox's cluster; their processes are the cluster's (pids.json), so `sandbox down` stops
// them, and `cleanupRealNodesInDir` then undoes what they did to the host.
import {
  buildControlPlane,
  cacheDir,
  missingComponents,
  NODE_COMPONENTS,
  RealNode,
  realNodeUnavailable,
  type LocalCluster,
} from '@regatta/local-cluster';

/** One real node unless told: the default where the machine can run one. */
export const DEFAULT_REAL_NODES = 1;

export interface RealNodesOptions {
  /** How many; undefined: DEFAULT_REAL_NODES where the machine can run one, none (and one line why) elsewhere. */
  requested: number | undefined;
  zones: string[];
  detach: boolean;
  log: (line: string) => void;
}

/** `real-1`, `real-2`, …: names no simulator uses (its nodes are `node<k>`). */
export const realNodeName = (i: number): string => `real-${i}`;

/**
 * How many real nodes this sandbox runs, decided before the cluster starts (their names get bus users when node agents
 * run): building their binaries first when missing; 0 (with one line why) when the machine cannot run one.
 */
export async function planRealNodes(o: RealNodesOptions): Promise<string[]> {
  const count = o.requested ?? DEFAULT_REAL_NODES;
  if (count === 0) return [];
  const reason = realNodeUnavailable();
  if (reason) {
    o.log(`real nodes: none, simulated nodes only (${reason})`);
    return [];
  }
  try {
    await buildControlPlane({ components: missingComponents(cacheDir(), NODE_COMPONENTS) });
  } catch (err) {
    if (o.requested !== undefined) throw err;
    o.log(`real nodes: none, simulated nodes only (their build failed: ${(err as Error).message})`);
    return [];
  }
  return Array.from({ length: count }, (_, i) => realNodeName(i + 1));
}

/** Starts the planned real nodes one after the other (the first starts the registry the others share). */
export async function startRealNodes(
  names: readonly string[],
  o: RealNodesOptions,
  cluster: LocalCluster,
): Promise<RealNode[]> {
  const nodes: RealNode[] = [];
  for (const [i, name] of names.entries()) {
    const node = await RealNode.start({
      clusterDir: cluster.dir,
      kubeconfig: cluster.endpoints.kubeconfig,
      apiserver: cluster.endpoints.apiserver,
      name,
      zone: o.zones[i % o.zones.length] ?? 'zone-a',
      ...(nodes[0] ? { registry: nodes[0].registry } : {}),
      keepAfterExit: o.detach,
      log: o.log,
    });
    nodes.push(node);
    for (const p of node.processes) await cluster.adopt(p);
  }
  return nodes;
}
