// The run's shared cluster, as tools/testing/global-setup.ts provides it (one cluster per run, docs/adr/0005).
import { inject } from 'vitest';
import { KubeClient } from '@regatta/kube';
import type { ClusterEndpoints } from '@regatta/local-cluster';

// the same declaration as tools/testing/provided-context.d.ts (which projects without this library include)
declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared cluster; `dir` holds its kubeconfig and logs; `nodes` are the simulated nodes. */
    cluster: ClusterEndpoints & { dir: string; nodes: string[] };
  }
}

/** The run's cluster (kubeconfig, NATS, Jaeger, node names) and a client for it; call inside a hook or test. */
export function scenarioCluster(): ClusterEndpoints & { dir: string; nodes: string[]; client: KubeClient } {
  const cluster = inject('cluster');
  return { ...cluster, client: KubeClient.fromKubeconfigFile(cluster.kubeconfig) };
}
