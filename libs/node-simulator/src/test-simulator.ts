// The set-up both simulator scenario files share (used by *.int.test.ts only): a private simulator on the run's
// cluster — its own node names, and a taint that keeps other files' pods off its nodes — with its log printed
// when a test fails, and everything it made removed after the file.
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import type { NodeSimulatorOptions } from './options.js';
import { NodeSimulator } from './simulator.js';
import { eventually, rand, TestKube } from './test-kube.js';
import type { Pod } from './types.js';

export interface PrivateSimulator {
  /** `<short>-<random>-`: the node names are `${prefix}1…N`. */
  readonly prefix: string;
  /** The prefix without its dash (label and taint values must end alphanumeric). */
  readonly id: string;
  /** The taint on every node, and the toleration a pod needs to run there. */
  readonly taint: { key: string; value: string; effect: string };
  readonly toleration: { key: string; operator: string; value: string; effect: string };
  readonly kubeconfig: string;
  readonly kube: TestKube;
  /** The running simulator (from beforeAll on). */
  readonly sim: NodeSimulator;
  getPod(ns: string, name: string): Promise<Pod>;
  /** Creates a pod in `ns`: the file's `podSpec` defaults, then `spec`. */
  createPod(
    ns: string,
    name: string,
    spec: Record<string, unknown>,
    meta?: Record<string, unknown>,
  ): Promise<Pod>;
  /** Waits until the pod runs and is Ready; returns it. */
  readyPod(ns: string, name: string): Promise<Pod>;
  /** The simulator's log lines since the current test began. */
  logLines(): readonly string[];
}

/**
 * Registers the file's hooks: beforeAll starts the simulator with `options(prefix, id)`, beforeEach keeps its log
 * for a failing test, afterAll deletes the file's namespaces, stops the simulator (its nodes removed) and runs
 * `cleanup`. Pods created through the result get `podSpec(prefix)` (e.g. a node) and a grace period of 1 s.
 */
export function usePrivateSimulator(o: {
  short: string;
  options: (
    prefix: string,
    id: string,
  ) => Omit<NodeSimulatorOptions, 'kubeconfig' | 'namePrefix' | 'taints' | 'log' | 'removeNodesOnStop'>;
  podSpec?: (prefix: string) => Record<string, unknown>;
  cleanup?: (kube: TestKube) => Promise<unknown>;
}): PrivateSimulator {
  const { short, options, cleanup = async () => undefined } = o;
  const prefix = `${short}-${rand()}-`;
  const id = prefix.slice(0, -1);
  const taint = { key: 'sim.regatta.dev/private', value: id, effect: 'NoSchedule' };
  const { kubeconfig } = inject('cluster');
  const kube = new TestKube(kubeconfig);
  const lines: string[] = [];
  let sim: NodeSimulator | undefined;

  beforeAll(async () => {
    sim = await NodeSimulator.start({
      ...options(prefix, id),
      kubeconfig,
      namePrefix: prefix,
      taints: [taint],
      removeNodesOnStop: true,
      log: (l) => lines.push(l),
    });
  });
  // the simulator's log helps when a test fails
  beforeEach(({ onTestFailed }) => {
    lines.length = 0;
    onTestFailed(() => {
      process.stderr.write(`[node-simulator ${prefix}]\n${lines.join('\n')}\n`);
    });
  });
  afterAll(async () => {
    await kube.cleanup();
    await sim?.stop();
    await cleanup(kube).catch(() => undefined);
  });

  return {
    prefix,
    id,
    taint,
    toleration: { key: taint.key, operator: 'Equal', value: id, effect: 'NoSchedule' },
    kubeconfig,
    kube,
    get sim() {
      if (!sim) throw new Error('the simulator is used before beforeAll started it');
      return sim;
    },
    getPod: (ns, name) => kube.get<Pod>(podPath(ns, name)),
    logLines: () => [...lines],
    createPod: (ns, name, spec, meta = {}) =>
      kube.create<Pod>(`/api/v1/namespaces/${ns}/pods`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, ...meta },
        spec: { terminationGracePeriodSeconds: 1, ...o.podSpec?.(prefix), ...spec },
      }),
    readyPod: (ns, name) =>
      eventually(`pod ${ns}/${name} Ready`, async () => {
        const p = await kube.get<Pod>(podPath(ns, name));
        return p.status?.phase === 'Running' && cond(p, 'Ready')?.status === 'True' ? p : undefined;
      }),
  };
}

export const podPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/pods/${name}`;
export const cond = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type);
export const containerStatusOf = (p: Pod, name: string) =>
  p.status?.containerStatuses?.find((c) => c.name === name);
