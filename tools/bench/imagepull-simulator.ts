// Benchmark 9, node simulator process: the kubelets of the image pull cluster (libs/node-simulator), each node serving
// its container runtime's CRI ImageService on `<criSocketDir>/<node>.sock` with a fixed pull time, in a process of its
// own so its CPU is accounted apart from the agents and the orchestrator.
import { appendFileSync } from 'node:fs';
import { NodeSimulator } from '@regatta/node-simulator';
import { serve } from './common.js';

let sim: NodeSimulator | undefined;

serve({
  async start(p: {
    kubeconfig: string;
    nodes: number;
    pullMs: number;
    criSocketDir: string;
    logFile: string;
  }) {
    const log = (line: string) => appendFileSync(p.logFile, `${new Date().toISOString()} ${line}\n`);
    sim = await NodeSimulator.start({
      kubeconfig: p.kubeconfig,
      nodes: p.nodes,
      namePrefix: 'bench-node-',
      timings: { imagePullMs: p.pullMs },
      // no pods run here: kubelet events would only be noise
      events: false,
      storageClass: '',
      criSocketDir: p.criSocketDir,
      log,
    });
    const s = sim;
    return { nodes: s.nodeNames.map((name) => ({ name, criSocket: s.criSocket(name) ?? '' })) };
  },
  async stop() {
    await sim?.stop();
    sim = undefined;
    return {};
  },
});
