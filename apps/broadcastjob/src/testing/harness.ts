// The BroadcastJob scenario harness: a watcher and the broadcastjob program on the shared local cluster (own bus
// prefix, own lease namespace, webhooks scoped to the file's namespaces) and its simulated nodes, and helpers that
// read what a user reads: the job's pods per node, its status, its events, `kubectl` output.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BroadcastJob, Pod } from '@regatta/api';
import type { CoreEvent, KubeClient } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import { eventsAbout, testNodeTaint, testNodeToleration, useScenarioLayer, type ScenarioLayer, runKubectl } from '@regatta/testing';

const FIXTURES = fileURLToPath(new URL('../../../../libs/api/src/broadcastjob/fixtures/', import.meta.url));
export const seedText = (file: string): string => readFileSync(`${FIXTURES}${file}`, 'utf8');

export const BJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob' } as const;
export const BJ_LABEL = 'broadcastjob-name';
export const GROUP_LABEL = 'regatta-test-bj-group';

/** A job for the nodes of group `x` (addNode) whose container runs `script` (`sh -c`, understood by the simulator). */
export function jobFor(ns: string, name: string, x: string, script: string, spec: Partial<BroadcastJob['spec']> = {}): BroadcastJob {
  return {
    ...BJ,
    metadata: { name, namespace: ns },
    spec: {
      template: {
        spec: {
          nodeSelector: { [GROUP_LABEL]: x },
          tolerations: [testNodeToleration(x)],
          containers: [{ name: 'work', image: 'busybox:1.36', command: ['sh', '-c', script] }],
          restartPolicy: 'Never',
        },
      },
      completionPolicy: { type: 'Always' },
      ...spec,
    },
  };
}

/** The node a job pod is bound to, or meant for through its node affinity. */
export function nodeOf(p: Pod): string {
  if (p.spec?.nodeName) return p.spec.nodeName;
  const a = p.spec?.['affinity'] as
    | { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: { matchFields?: { values?: string[] }[] }[] } } }
    | undefined;
  return a?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0] ?? '';
}

export interface BroadcastJobScenarios {
  readonly client: KubeClient;
  readonly layer: ScenarioLayer;
  /** The run's simulated nodes (untainted). */
  readonly nodes: string[];
  readonly controller: ManagedProcess;
  startController(instance: string): Promise<ManagedProcess>;
  namespace(): Promise<string>;
  /**
   * Adds a simulated node labelled `regatta-test-bj-group=<x>` and tainted `regatta-test-<x>` (plus `extraTaints`),
   * removed after the file: only the jobs of one scenario (nodeSelector and toleration: {@link jobFor}) go there.
   */
  addNode(x: string, extraTaints?: { key: string; value?: string; effect: string }[]): Promise<string>;
  job(ns: string, name: string): Promise<BroadcastJob | undefined>;
  create(job: BroadcastJob): Promise<BroadcastJob>;
  /** The job's pods (by its name label), live or not. */
  pods(ns: string, name: string): Promise<Pod[]>;
  events(ns: string, reason?: string): Promise<CoreEvent[]>;
  kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }>;
}

export function useBroadcastJobScenarios(): BroadcastJobScenarios {
  const layer = useScenarioLayer({
    lease: 'bj',
    short: 'bj',
    scopeLabel: 'regatta-test-bj',
    controller: { app: 'broadcastjob', webhooks: true },
  });
  const kube = (): KubeClient => layer.client;
  return {
    get client() {
      return kube();
    },
    layer,
    get nodes() {
      return layer.nodes;
    },
    get controller() {
      return layer.controller;
    },
    startController: (instance) => layer.startController(instance),
    namespace: () => layer.namespace(),
    addNode: (x, extraTaints = []) =>
      layer.addTestNode(x, { labels: { [GROUP_LABEL]: x }, taints: [testNodeTaint(x), ...extraTaints] }),
    job: (ns, name) => kube().getOrUndefined<BroadcastJob>({ ...BJ, namespace: ns, name }),
    create: (job) => kube().create<BroadcastJob>(job),
    async pods(ns, name) {
      const list = await kube().list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns }, { labelSelector: `${BJ_LABEL}=${name}` });
      return list.items;
    },
    events: (ns, reason) => eventsAbout(kube(), ns, 'BroadcastJob', reason),
    kubectl: (args, input) => runKubectl(layer.kubeconfig, args, input),
  };
}
