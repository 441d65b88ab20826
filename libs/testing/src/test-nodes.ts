// Extra nodes a scenario adds to the shared cluster. Other files' DaemonSets run on every node they tolerate, so an
// extra node is always tainted: `regatta-test-<x>` unless the scenario names its own taints; the workloads meant for
// it tolerate that key.
import { isAlreadyExists, type KubeClient } from '@regatta/kube';
import { simulatedNodeManifest } from '@regatta/node-simulator';

export interface TestNodeTaint {
  key: string;
  value?: string;
  effect: string;
}

/** `regatta-test-<x>=<value>:NoSchedule`, the taint of an extra test node. */
export const testNodeTaint = (x: string, value = 'yes'): TestNodeTaint => ({
  key: `regatta-test-${x}`,
  value,
  effect: 'NoSchedule',
});

/** Tolerates `testNodeTaint(x)` whatever its value. */
export const testNodeToleration = (x: string) => ({ key: `regatta-test-${x}`, operator: 'Exists' as const });

export interface TestNodeOptions {
  /** `topology.kubernetes.io/zone`; `zone-a` unless told. */
  zone?: string;
  labels?: Record<string, string>;
  /** `cpu=4,memory=16Gi,pods=50`. */
  capacity?: string;
  /** Other taints instead of `testNodeTaint(x)` (an empty list keeps the default: an extra node is always tainted). */
  taints?: TestNodeTaint[];
  /** A node several files share (left for the run): one that exists already is fine. */
  shared?: boolean;
}

/** Creates node `name`, run by the run's simulator (prefix `node`), tainted `regatta-test-<x>`; returns its name. */
export async function createTestNode(
  client: KubeClient,
  name: string,
  x: string,
  o: TestNodeOptions = {},
): Promise<string> {
  const manifest = simulatedNodeManifest(name, {
    prefix: 'node',
    zone: o.zone ?? 'zone-a',
    taints: o.taints?.length ? o.taints : [testNodeTaint(x)],
    ...(o.labels ? { labels: o.labels } : {}),
    ...(o.capacity ? { capacity: o.capacity } : {}),
  });
  await client.create(manifest as never).catch((err: unknown) => {
    if (!o.shared || !isAlreadyExists(err)) throw err;
  });
  return name;
}
