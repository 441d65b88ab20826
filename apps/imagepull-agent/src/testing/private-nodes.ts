// Scenario set-up shared by the agent's files: simulated nodes of the file's own (tainted so that other files' pods
// stay off) serving their CRI ImageService on unix sockets, a watcher on the file's own bus prefix, and one
// imagepull-agent per node, started as the sandbox starts them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { generateCrds } from '@regatta/api';
import type { KubeClient } from '@regatta/kube';
import { installCrds, type ManagedProcess } from '@regatta/local-cluster';
import { NodeSimulator } from '@regatta/node-simulator';
import { randomId, scenarioCluster, useScenarioPrograms, type ScenarioPrograms } from '@regatta/testing';

export interface PrivateNodes {
  readonly id: string;
  readonly sim: NodeSimulator;
  readonly client: KubeClient;
  readonly programs: ScenarioPrograms;
  /** The environment every program of the file gets (cluster, bus and its prefix). */
  readonly env: Record<string, string>;
  nodes(): string[];
  /** Starts (again) the agent of `node` as instance `instance`. */
  startAgent(node: string, instance: string): Promise<void>;
  agent(node: string): ManagedProcess;
}

/** `before` runs after the watcher started and before the agents (e.g. to start the imagepull program). */
export function usePrivateNodes(o: {
  short: string;
  nodes: number;
  imagePullMs: number;
  before?: (p: PrivateNodes) => Promise<void>;
}): PrivateNodes {
  const id = randomId();
  const prefix = `${o.short}-${id}-`;
  const programs = useScenarioPrograms();
  const agents = new Map<string, ManagedProcess>();
  let sim: NodeSimulator | undefined;
  let client: KubeClient | undefined;
  let socketDir = '';
  let env: Record<string, string> = {};
  const p: PrivateNodes = {
    id,
    get sim() {
      return sim!;
    },
    get client() {
      return client!;
    },
    programs,
    get env() {
      return env;
    },
    nodes: () => sim!.nodeNames,
    async startAgent(node, instance) {
      const started = await programs.start('imagepull-agent', `imagepull-agent-${id}-${node}-${instance}`, {
        ...env,
        NODE_NAME: node,
        CRI_SOCKET: sim!.criSocket(node)!,
      });
      agents.set(node, started.process);
    },
    agent: (node) => agents.get(node)!,
  };

  beforeAll(async () => {
    const cluster = scenarioCluster();
    client = cluster.client;
    await installCrds(cluster.kubeconfig, generateCrds());
    socketDir = await mkdtemp(join(tmpdir(), 'regatta-cri-'));
    sim = await NodeSimulator.start({
      kubeconfig: cluster.kubeconfig,
      nodes: o.nodes,
      namePrefix: prefix,
      taints: [{ key: 'sim.regatta.dev/private', value: `${o.short}-${id}`, effect: 'NoSchedule' }],
      removeNodesOnStop: true,
      storageClass: '',
      criSocketDir: socketDir,
      timings: { imagePullMs: o.imagePullMs },
    });
    env = { KUBECONFIG: cluster.kubeconfig, NATS_URL: cluster.nats!, REGATTA_BUS_PREFIX: `${o.short}${id}_`, LOG_LEVEL: 'info' };
    await programs.start('watcher', `watcher-${o.short}-${id}`, { ...env, POD_NAME: `watcher-${o.short}-${id}` });
    await o.before?.(p);
    for (const node of p.nodes()) await p.startAgent(node, 'a');
  }, 240_000);

  afterAll(async () => {
    for (const node of sim?.nodeNames ?? [])
      await client?.delete({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage', name: node }).catch(() => undefined);
    await sim?.stop();
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
  });
  return p;
}
