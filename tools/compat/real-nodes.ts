/**
 * `npm run compat -- --real-nodes` (docs/real-nodes.md "Compat on real nodes"): the sandbox's simulated nodes are
 * cordoned so that the specs' pods are scheduled on its real node, and the host folders the simulated provisioner's
 * hostPath PVs made on the real node are removed with the run.
 */
import { rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { NODE_KIND_LABEL } from '@regatta/local-cluster';

/** Where the simulated provisioner puts its hostPath PVs (libs/node-simulator volumes.ts). */
export const SIMULATED_VOLUMES = '/var/lib/regatta-sim/volumes/';

interface NodeObject extends KubeObject {
  spec?: { unschedulable?: boolean };
}

/** The nodes to cordon: every node that is not a real one. */
export function simulatedNodeNames(nodes: readonly NodeObject[]): string[] {
  return nodes
    .filter((n) => n.metadata?.labels?.[NODE_KIND_LABEL] !== 'real')
    .map((n) => n.metadata?.name ?? '')
    .filter(Boolean);
}

/** Cordons (spec.unschedulable) the simulated nodes; returns their names. */
export async function cordonSimulatedNodes(kube: KubeClient): Promise<string[]> {
  const nodes = (await kube.list<NodeObject>({ apiVersion: 'v1', kind: 'Node' })).items;
  const names = simulatedNodeNames(nodes);
  for (const name of names)
    await kube.patch(
      { apiVersion: 'v1', kind: 'Node', name },
      { spec: { unschedulable: true } },
      { type: 'merge' },
    );
  return names;
}

/** The hostPath folders of the simulated provisioner's PVs (the only ones a kubelet may have made on the host). */
export function provisionedHostPaths(
  pvs: readonly (KubeObject & { spec?: { hostPath?: { path?: string } } })[],
): string[] {
  return pvs
    .map((pv) => pv.spec?.hostPath?.path ?? '')
    .filter(
      (p) =>
        p.startsWith(SIMULATED_VOLUMES) &&
        !p.slice(SIMULATED_VOLUMES.length).includes('/') &&
        !p.includes('..'),
    );
}

/**
 * Follows the sandbox's PVs (its API server at `kubeconfig`) from the start of the run: a spec's PVs are deleted with
 * its namespace, long before the run ends, while the folders the kubelet made for them stay. `stop()` removes the
 * folders of every PV seen (and the parent folders when this leaves them empty); folders of other sandboxes' PVs stay.
 */
export function followProvisionedHostPaths(
  kubeconfig: string,
  intervalMs = 2_000,
): { stop(): Promise<void> } {
  const kube = KubeClient.fromKubeconfigFile(kubeconfig);
  const seen = new Set<string>();
  const poll = async () => {
    const pvs = (await kube.list({ apiVersion: 'v1', kind: 'PersistentVolume' })).items;
    for (const p of provisionedHostPaths(pvs)) seen.add(p);
  };
  const timer = setInterval(() => void poll().catch(() => undefined), intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await poll().catch(() => undefined);
      await kube.close();
      for (const p of seen) await rm(p, { recursive: true, force: true });
      // the folders themselves when this run made them (rmdir refuses while another sandbox's PVs are there)
      for (const d of [SIMULATED_VOLUMES, dirname(SIMULATED_VOLUMES.replace(/\/$/, ''))])
        await rmdir(d).catch(() => undefined);
    },
  };
}
