// What tools/testing/global-setup.ts provides to integration tests through `inject(...)`.
// Every project's tsconfig.spec.json includes this file.
import 'vitest';
import type { ClusterEndpoints } from '@regatta/local-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared cluster; `dir` holds its kubeconfig and logs; `nodes` are the simulated nodes. */
    cluster: ClusterEndpoints & { dir: string; nodes: string[] };
  }
}
