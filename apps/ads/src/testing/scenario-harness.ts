// The Advanced DaemonSet scenario harness: each scenario file gets its own watcher and ads program (own bus prefix,
// own lease namespace, webhooks scoped to its namespaces) on the shared local cluster and its simulated nodes, and
// helpers that read what a user would read (pods per node, the DaemonSet's status, events). The generic parts are
// @regatta/testing's; this file adds only what is the DaemonSet's.
import { afterAll, beforeAll, expect } from 'vitest';
import { generateCrds } from '@regatta/api';
import type { CoreEvent, KubeClient, KubeObject } from '@regatta/kube';
import { installCrds, type ManagedProcess } from '@regatta/local-cluster';
import {
  createNamespace,
  eventsAbout,
  livePods,
  programLog,
  randomId,
  scenarioCluster,
  traceIdOf,
  traceSpans,
  useScenarioPrograms,
  type JaegerSpan,
  type Pod,
  type ServingProgram,
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
  const id = randomId();
  const scopeLabel = 'regatta-test-ads';
  const programs = useScenarioPrograms();
  let client: KubeClient | undefined;
  let nodes: string[] = [];
  let controller: ManagedProcess | undefined;
  let first: ServingProgram | undefined;
  let jaegerQuery: string | undefined;
  let common: Record<string, string> = {};
  const labelled = new Set<string>();

  const startController = async (instance: string): Promise<ManagedProcess> => {
    const p = await programs.start(
      'ads',
      `ads-${id}-${instance}`,
      {
        ...common,
        REGATTA_NAMESPACE_SELECTOR: `${scopeLabel}=${id}`,
        POD_NAME: `ads-${id}-${instance}`,
        ...options.env,
      },
      { webhook: options.webhooks !== false },
    );
    controller = p.process;
    if (instance === 'a') first = p;
    return p.process;
  };

  beforeAll(async () => {
    const cluster = scenarioCluster();
    const { kubeconfig, nats, jaeger } = cluster;
    jaegerQuery = jaeger?.query;
    client = cluster.client;
    nodes = cluster.nodes;
    await installCrds(kubeconfig, generateCrds());
    const leaseNs = `ads-lease-${id}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: leaseNs } });
    common = {
      KUBECONFIG: kubeconfig,
      NATS_URL: nats!,
      REGATTA_BUS_PREFIX: `ads${id}_`,
      REGATTA_LEASE_NAMESPACE: leaseNs,
      LOG_LEVEL: 'info',
      ...(jaeger ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttp } : {}),
    };
    await programs.start('watcher', `watcher-${id}`, { ...common, POD_NAME: `watcher-${id}` });
    await startController('a');
  });

  afterAll(async () => {
    for (const l of labelled) {
      const [node, key] = l.split('\u0000') as [string, string];
      await client
        ?.patch({ ...NODE, name: node }, { metadata: { labels: { [key]: null } } }, { type: 'merge' })
        .catch(() => undefined);
    }
    for (const kind of ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']) {
      await client
        ?.delete({ apiVersion: 'admissionregistration.k8s.io/v1', kind, name: `regatta-ads-${id}` })
        .catch(() => undefined);
    }
  });

  const kube = (): KubeClient => {
    if (!client) throw new Error('the scenario harness is used before beforeAll ran');
    return client;
  };
  const pods = (ns: string) => livePods(kube(), ns);
  const daemonSet = (ns: string, name: string) => kube().get<DaemonSet>({ ...DS, namespace: ns, name });

  return {
    get client() {
      return kube();
    },
    get nodes() {
      return nodes;
    },
    get controller() {
      if (!controller) throw new Error('the ads program is not started');
      return controller;
    },
    startController,
    namespace: () => createNamespace(kube(), `ads-${id}`, { [scopeLabel]: id }),
    pods,
    daemonSet,
    create: (ds) => kube().create<DaemonSet>(ds),
    events: (ns, reason) => eventsAbout(kube(), ns, 'DaemonSet', reason),
    async setImage(ns, name, image) {
      await kube().patch(
        { ...DS, namespace: ns, name },
        [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }],
        { type: 'json' },
      );
    },
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
    controllerLog: () => programLog(first),
    async rolloutSpans(ns, name) {
      const raw = (await daemonSet(ns, name)).metadata?.annotations?.['regatta.dev/rollout-trace'];
      const traceparent = raw ? (JSON.parse(raw) as { traceparent?: string }).traceparent : undefined;
      return traceSpans(jaegerQuery, traceIdOf(traceparent));
    },
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
