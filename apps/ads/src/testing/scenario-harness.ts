// The Advanced DaemonSet scenario harness: each scenario file gets its own watcher and ads program (own bus prefix,
// own lease namespace, webhooks scoped to its namespaces) on the shared local cluster and its simulated nodes, and
// helpers that read what a user would read (pods per node, the DaemonSet's status, events). The generic parts are
// @regatta/testing's; this file adds only what is the DaemonSet's.
import { afterAll, expect } from 'vitest';
import type { CoreEvent, KubeClient, KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import {
  eventsAbout,
  livePods,
  rolloutTraceSpans,
  setTemplateImage,
  useScenarioLayer,
  type JaegerSpan,
  type Pod,
} from '@regatta/testing';

export { isReady, POD, type JaegerSpan, type Pod } from '@regatta/testing';
export type { CoreEvent } from '@regatta/kube';

export const DS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' } as const;
export const DS_V1ALPHA1 = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet' } as const;
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;

export interface DaemonSetStatus {
  observedGeneration?: number;
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  updateRevision?: string;
}
export interface DaemonSet extends KubeObject {
  spec: Record<string, unknown> & {
    template: {
      metadata?: { labels?: Record<string, string> };
      spec: { containers: { name: string; image: string }[] };
    };
  };
  status?: DaemonSetStatus;
}

/** The seed's nginx DaemonSet (S1 §4.1), named `name`, with `edit` applied. */
export function nginxDaemonSet(
  ns: string,
  name: string,
  edit: (ds: DaemonSet) => void = () => undefined,
): DaemonSet {
  const ds: DaemonSet = {
    ...DS_V1ALPHA1,
    metadata: { name, namespace: ns },
    spec: {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard' } },
      selector: { matchLabels: { 'k8s-app': name } },
      template: {
        metadata: { labels: { 'k8s-app': name } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1.28.0', ports: [{ name: 'http', containerPort: 80 }] } as never,
          ],
        },
      },
    },
  };
  edit(ds);
  return ds;
}

/** The node a daemon pod is bound to (or meant for, through its node affinity). */
export function nodeOf(p: Pod): string {
  const spec = p.spec as {
    nodeName?: string;
    affinity?: {
      nodeAffinity?: {
        requiredDuringSchedulingIgnoredDuringExecution?: {
          nodeSelectorTerms?: { matchFields?: { values?: string[] }[] }[];
        };
      };
    };
  };
  return (
    spec.nodeName ||
    (spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]
      ?.matchFields?.[0]?.values?.[0] ??
      '')
  );
}

export interface DaemonSetScenarios {
  readonly client: KubeClient;
  /** The simulated nodes of the run. */
  readonly nodes: string[];
  readonly controller: ManagedProcess;
  startController(instance: string): Promise<ManagedProcess>;
  namespace(): Promise<string>;
  pods(ns: string): Promise<Pod[]>;
  daemonSet(ns: string, name: string): Promise<DaemonSet>;
  create(ds: DaemonSet): Promise<DaemonSet>;
  events(ns: string, reason?: string): Promise<CoreEvent[]>;
  setImage(ns: string, name: string, image: string): Promise<void>;
  patch(ns: string, name: string, patch: Record<string, unknown>): Promise<void>;
  /** Sets (value) or removes (null) a label on a node; labels set here are removed after the file. */
  labelNode(node: string, key: string, value: string | null): Promise<void>;
  controllerLog(): string;
  rolloutSpans(ns: string, name: string): Promise<JaegerSpan[]>;
  /** Waits until the status reports `desired` nodes, all updated and available, with one live pod each. */
  settled(ns: string, name: string, desired: number, timeoutMs?: number): Promise<DaemonSet>;
}

export function useDaemonSetScenarios(
  options: { env?: Record<string, string>; webhooks?: boolean } = {},
): DaemonSetScenarios {
  const labelled = new Set<string>();
  const layer = useScenarioLayer({
    lease: 'ads',
    short: 'ads',
    scopeLabel: 'regatta-test-ads',
    controller: { app: 'ads', ...options },
  });

  afterAll(async () => {
    for (const l of labelled) {
      const [node, key] = l.split('\u0000') as [string, string];
      await layer.client
        .patch({ ...NODE, name: node }, { metadata: { labels: { [key]: null } } }, { type: 'merge' })
        .catch(() => undefined);
    }
  });
  const kube = (): KubeClient => layer.client;
  const pods = (ns: string) => livePods(kube(), ns);
  const daemonSet = (ns: string, name: string) => kube().get<DaemonSet>({ ...DS, namespace: ns, name });

  return {
    get client() {
      return kube();
    },
    get nodes() {
      return layer.nodes;
    },
    get controller() {
      return layer.controller;
    },
    startController: (instance) => layer.startController(instance),
    namespace: () => layer.namespace(),
    pods,
    daemonSet,
    create: (ds) => kube().create<DaemonSet>(ds),
    events: (ns, reason) => eventsAbout(kube(), ns, 'DaemonSet', reason),
    setImage: (ns, name, image) => setTemplateImage(kube(), { ...DS, namespace: ns, name }, image),
    async patch(ns, name, patch) {
      await kube().patch({ ...DS, namespace: ns, name }, patch, { type: 'merge' });
    },
    async labelNode(node, key, value) {
      labelled.add(`${node}\u0000${key}`);
      await kube().patch(
        { ...NODE, name: node },
        { metadata: { labels: { [key]: value } } },
        { type: 'merge' },
      );
    },
    controllerLog: () => layer.controllerLog(),
    rolloutSpans: async (ns, name) => rolloutTraceSpans(layer.jaegerQuery, await daemonSet(ns, name)),
    async settled(ns, name, desired, timeoutMs = 90_000) {
      await expect
        .poll(
          async () => {
            const ds = await daemonSet(ns, name);
            const s = ds.status;
            return (
              s?.observedGeneration === ds.metadata?.generation &&
              s?.desiredNumberScheduled === desired &&
              s.currentNumberScheduled === desired &&
              s.updatedNumberScheduled === desired &&
              s.numberAvailable === desired &&
              (await pods(ns)).length === desired
            );
          },
          { timeout: timeoutMs, interval: 500 },
        )
        .toBe(true);
      return daemonSet(ns, name);
    },
  };
}
