import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { generateCrds } from '@regatta/api';
import { installCrds, LocalCluster, waitForGarbageCollector } from '@regatta/local-cluster';
import { KubeClient } from '@regatta/kube';
import { NodeSimulator } from '@regatta/node-simulator';

/**
 * Starts one real control plane (etcd, kube-apiserver, controller-manager, scheduler), nats-server,
 * Jaeger and five simulated nodes for the whole integration run. Tests isolate themselves by namespace.
 * The CRDs are installed here, and the tests start once the garbage collector watches them (an Orphan delete
 * before then can lose the dependents: libs/local-cluster garbage-collector.ts).
 * REGATTA_KEEP_TEST_CLUSTER=1 keeps the folder (logs) after the run; REGATTA_TEST_BUS_REPLICAS=3 runs the bus as a
 * three-server JetStream cluster.
 */
export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'regatta-test-'));
  const log = (line: string) => process.stderr.write(`[test cluster] ${line}\n`);
  // REGATTA_TEST_BUS_REPLICAS=3: the bus is a three-server JetStream cluster (docs/operations.md "A clustered bus")
  const busReplicas = Number(process.env['REGATTA_TEST_BUS_REPLICAS'] ?? '1');
  // the suite's shared bus keeps nats-server's own (lazy) fsync: every test file's writes go through it at once, and
  // with an fsync per write the whole suite's bus lagged by minutes on a 2-vCPU machine (run on 7700af0: 14 tests
  // timed out that pass alone). The sandbox and the chart fsync every write (docs/adr/0086-clustered-bus-and-fsync.md).
  const cluster = await LocalCluster.start({ dir, log, busReplicas, natsSync: 'default' });
  const kubeconfig = cluster.endpoints.kubeconfig;
  const [simulator] = await Promise.all([
    NodeSimulator.start({ kubeconfig, nodes: 5, log }),
    (async () => {
      const start = Date.now();
      await installCrds(kubeconfig, generateCrds());
      await waitForGarbageCollector(kubeconfig, { apiVersion: 'apps.kruise.io/v1beta1', kind: 'NodeImage' });
      log(`CRDs installed and watched by the garbage collector in ${Date.now() - start} ms`);
    })(),
  ]);
  project.provide('cluster', { ...cluster.endpoints, dir, nodes: simulator.nodeNames });
  log(`startup (ms): ${JSON.stringify(cluster.startupMs)}; folder ${dir}`);
  return async () => {
    await logPodsPerNode(kubeconfig, log).catch((e: unknown) =>
      log(`pods per node: not read (${String(e)})`),
    );
    await simulator.stop();
    await cluster.stop();
    if (!process.env['REGATTA_KEEP_TEST_CLUSTER']) await rm(dir, { recursive: true, force: true });
  };
}

/** How full the shared nodes were at the end (each file deletes its namespaces: tools/testing/namespace-cleanup.ts). */
async function logPodsPerNode(kubeconfig: string, log: (line: string) => void): Promise<void> {
  const pods = await KubeClient.fromKubeconfigFile(kubeconfig).list<{
    spec?: { nodeName?: string };
    status?: { phase?: string };
  }>({ apiVersion: 'v1', kind: 'Pod' });
  const perNode: Record<string, number> = {};
  for (const p of pods.items) {
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    const node = p.spec?.nodeName || '(unscheduled)';
    perNode[node] = (perNode[node] ?? 0) + 1;
  }
  log(`pods left per node at the end of the run: ${JSON.stringify(perNode)}`);
}
