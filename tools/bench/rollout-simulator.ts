// Benchmark 4, node simulator process: the kubelets of the rollout cluster (libs/node-simulator), in a
// process of their own so their CPU is accounted apart from the controllers and the orchestrator.
import { appendFileSync } from 'node:fs';
import { NodeSimulator, type SimulatorTimings } from '@regatta/node-simulator';
import { serve } from './common.js';

let sim: NodeSimulator | undefined;

serve({
  async start(p: {
    kubeconfig: string;
    nodes: number;
    maxPods: number;
    timings: Partial<SimulatorTimings>;
    logFile: string;
  }) {
    const log = (line: string) => appendFileSync(p.logFile, `${new Date().toISOString()} ${line}\n`);
    sim = await NodeSimulator.start({
      kubeconfig: p.kubeconfig,
      nodes: p.nodes,
      namePrefix: 'bench-node-',
      capacity: { cpu: '64', memory: '256Gi', pods: String(p.maxPods) },
      timings: p.timings,
      // kubelet events would be the same writes on both sides; leave them out on two cores
      events: false,
      storageClass: '',
      log,
    });
    return { nodes: sim.nodeNames };
  },
  async stop() {
    await sim?.stop();
    sim = undefined;
    return {};
  },
});
