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
    /** Node names `<namePrefix>1…N` (default `bench-node-`); labels and taints on each (the chaos suite's R2). */
    namePrefix?: string;
    labels?: Record<string, string>;
    taints?: { key: string; value: string; effect: 'NoSchedule' }[];
  }) {
    const log = (line: string) => appendFileSync(p.logFile, `${new Date().toISOString()} ${line}\n`);
    sim = await NodeSimulator.start({
      kubeconfig: p.kubeconfig,
      nodes: p.nodes,
      namePrefix: p.namePrefix ?? 'bench-node-',
      ...(p.labels ? { labels: p.labels } : {}),
      ...(p.taints ? { taints: p.taints } : {}),
      // nodes of a run's own (R2's agent nodes) leave the cluster with the simulator
      removeNodesOnStop: p.namePrefix !== undefined,
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
  /** The images a node holds (normalized references). */
  images(p: { node: string }) {
    return { images: sim?.images.listImages(p.node).map((i) => i.ref) ?? [] };
  },
  /** Removes every image of a node (a pull after this shows in `images`). */
  clearImages(p: { node: string }) {
    for (const i of sim?.images.listImages(p.node) ?? []) sim?.images.removeImage(p.node, i.ref);
    return {};
  },
  async stop() {
    await sim?.stop();
    sim = undefined;
    return {};
  },
});
