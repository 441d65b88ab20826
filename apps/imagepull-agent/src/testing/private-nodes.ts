// Scenario set-up shared by the agent's files: simulated nodes of the file's own (test nodes, tainted
// `regatta-test-<short>-<id>` so that other files' pods stay off) serving their CRI ImageService on unix sockets, a
// watcher on the file's own bus prefix, and one imagepull-agent per node, started as the sandbox starts them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { KubeClient } from '@regatta/kube';
import type { ManagedProcess, ServingProgram } from '@regatta/local-cluster';
import { NodeSimulator } from '@regatta/node-simulator';
import { programLog, testNodeTaint, useScenarioLayer, type ScenarioPrograms } from '@regatta/testing';

export interface PrivateNodes {
  readonly id: string;
  readonly sim: NodeSimulator;
  readonly client: KubeClient;
  readonly programs: ScenarioPrograms;
  /** The run's Jaeger query API. */
  readonly jaegerQuery: string | undefined;
  /** The environment every program of the file gets (cluster, bus and its prefix). */
  readonly env: Record<string, string>;
  nodes(): string[];
  /**
   * A node joining after the start (`<short>-<id>-<suffix>`, tainted as the others) and its agent, as the chart's
   * DaemonSet and `regatta sandbox node add` give a joining node one. Returns the node name.
   */
  addNode(suffix: string): Promise<string>;
  /** Starts (again) the agent of `node` as instance `instance`. */
  startAgent(node: string, instance: string): Promise<void>;
  agent(node: string): ManagedProcess;
  /** What the agent of `node` logged so far (JSON lines). */
  agentLog(node: string): string;
}

/** `before` runs after the watcher started and before the agents (e.g. to start the imagepull program). */
export function usePrivateNodes(o: {
  short: string;
  nodes: number;
  imagePullMs: number;
  before?: (p: PrivateNodes) => Promise<void>;
  /** Added to every program's environment, evaluated at the start (e.g. a bus of the file's own: NATS_URL). */
  env?: () => Record<string, string>;
}): PrivateNodes {
  const agents = new Map<string, ServingProgram>();
  const added: string[] = [];
  let sim: NodeSimulator | undefined;
  let socketDir = '';
  const layer = useScenarioLayer({
    short: o.short,
    // a lease namespace of the file's own (REGATTA_LEASE_NAMESPACE): the watcher's lease is not the cluster-wide
    // kube-system one, which another file's watcher may hold (on a bus of its own)
    lease: o.short,
    timeoutMs: 240_000,
    ...(o.env ? { env: o.env } : {}),
    async start(l) {
      socketDir = await mkdtemp(join(tmpdir(), 'regatta-cri-'));
      sim = await NodeSimulator.start({
        kubeconfig: l.kubeconfig,
        nodes: o.nodes,
        namePrefix: `${o.short}-${l.id}-`,
        taints: [testNodeTaint(`${o.short}-${l.id}`)],
        removeNodesOnStop: true,
        storageClass: '',
        criSocketDir: socketDir,
        timings: { imagePullMs: o.imagePullMs },
      });
      await o.before?.(p);
      for (const node of p.nodes()) await p.startAgent(node, 'a');
    },
  });
  const p: PrivateNodes = {
    id: layer.id,
    get sim() {
      return sim!;
    },
    get client() {
      return layer.client;
    },
    programs: layer.programs,
    get jaegerQuery() {
      return layer.jaegerQuery;
    },
    get env() {
      return layer.env;
    },
    nodes: () => sim!.nodeNames,
    async addNode(suffix) {
      const name = `${o.short}-${layer.id}-${suffix}`;
      await sim!.addNode(name, { taints: [testNodeTaint(`${o.short}-${layer.id}`)] });
      added.push(name);
      await p.startAgent(name, 'a');
      return name;
    },
    async startAgent(node, instance) {
      const name = `imagepull-agent-${layer.id}-${node}-${instance}`;
      const started = await layer.programs.start('imagepull-agent', name, {
        ...layer.env,
        NODE_NAME: node,
        CRI_SOCKET: sim!.criSocket(node)!,
      });
      agents.set(node, started);
    },
    agent: (node) => agents.get(node)!.process,
    agentLog: (node) => programLog(agents.get(node)),
  };

  afterAll(async () => {
    for (const node of [...(sim?.nodeNames ?? []), ...added])
      await layer.client
        .delete({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node })
        .catch(() => undefined);
    await sim?.stop();
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
  });
  return p;
}

/** The namespace label the imagepull program of a file serves (REGATTA_NAMESPACE_SELECTOR `<label>=<file id>`). */
export const IMAGEPULL_SCOPE_LABEL = 'regatta-test-imagepull-agent';

/**
 * Private nodes with their agents and the imagepull program (its webhooks registered, NodeImages created after 1 s)
 * serving the namespaces labelled `IMAGEPULL_SCOPE_LABEL=<file id>`; its webhook configurations are removed after the
 * file.
 */
export function useImagePullController(
  o: Omit<Parameters<typeof usePrivateNodes>[0], 'before'>,
): PrivateNodes {
  const t = usePrivateNodes({
    ...o,
    before: async (p) => {
      await p.programs.start(
        'imagepull',
        `imagepull-${p.id}`,
        {
          ...p.env,
          POD_NAME: `imagepull-${p.id}`,
          REGATTA_NAMESPACE_SELECTOR: `${IMAGEPULL_SCOPE_LABEL}=${p.id}`,
          REGATTA_NODEIMAGE_CREATION_DELAY_SECONDS: '1',
        },
        { webhook: true },
      );
    },
  });
  afterAll(async () => {
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'])
      await t.client
        .delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: `regatta-imagepull-${t.id}` })
        .catch(() => undefined);
  });
  return t;
}
