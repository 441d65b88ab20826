// The Advanced StatefulSet scenario harness: each scenario file gets its own watcher and asts program (own bus
// prefix, own lease namespace, webhooks scoped to its namespaces) on the shared local cluster, and helpers that read
// what a user would read (pods, claims, the set's status, events). The generic parts are @regatta/testing's.
import { expect } from 'vitest';
import type { CoreEvent, KubeClient, KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import {
  eventsAbout,
  livePods,
  POD,
  rolloutTraceSpans,
  setTemplateImage,
  useScenarioLayer,
  waitObserved,
  type JaegerSpan,
  type Pod,
} from '@regatta/testing';

export { isReady, POD, type Pod } from '@regatta/testing';
export type { CoreEvent } from '@regatta/kube';

export const ASTS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } as const;
export const PVC = { apiVersion: 'v1', kind: 'PersistentVolumeClaim' } as const;

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas: number;
  availableReplicas: number;
  currentReplicas: number;
  updatedReplicas: number;
  updatedReadyReplicas?: number;
  updateRevision?: string;
  currentRevision?: string;
  labelSelector?: string;
  volumeClaims?: { volumeClaimName: string; compatibleReplicas: number; compatibleReadyReplicas: number }[];
}
export interface StatefulSet extends KubeObject {
  spec: Record<string, unknown> & { replicas?: number; updateStrategy?: Record<string, unknown> };
  status?: StatefulSetStatus;
}

/** S1 §3.1's `advanced-sts-demo.yaml` (Parallel, 5 replicas, maxUnavailable 3), named `name` in `ns`. */
export function demo(ns: string, name: string, image = 'nginx:1.25'): StatefulSet {
  return {
    ...ASTS,
    metadata: { name, namespace: ns },
    spec: {
      serviceName: 'nginx-headless',
      podManagementPolicy: 'Parallel',
      replicas: 5,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } },
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image, ports: [{ name: 'web', containerPort: 80 }] }] },
      },
    },
  };
}

export interface AstsScenarios {
  readonly client: KubeClient;
  readonly controller: ManagedProcess;
  /** Starts another asts program instance (e.g. after a kill) and waits until it is ready. */
  startController(instance: string): Promise<ManagedProcess>;
  namespace(): Promise<string>;
  pods(ns: string): Promise<Pod[]>;
  claims(ns: string): Promise<KubeObject[]>;
  get(ns: string, name: string): Promise<StatefulSet>;
  create(sts: StatefulSet): Promise<StatefulSet>;
  events(ns: string, reason?: string): Promise<CoreEvent[]>;
  setImage(ns: string, name: string, image: string): Promise<void>;
  patch(ns: string, name: string, patch: Record<string, unknown>): Promise<void>;
  controllerLog(): string;
  /** The spans Jaeger holds for the set's last rollout trace ([] until exported). */
  rolloutSpans(ns: string, name: string): Promise<JaegerSpan[]>;
  readonly jaegerQuery: string | undefined;
  observed(ns: string, name: string): Promise<StatefulSet>;
  /** Every replica at the update revision and ready, with that many live pods. */
  settled(ns: string, name: string, replicas: number, timeoutMs?: number): Promise<StatefulSet>;
}

export function useAstsScenarios(
  options: { env?: Record<string, string>; webhooks?: boolean } = {},
): AstsScenarios {
  const layer = useScenarioLayer({
    lease: 'asts',
    short: 'asts',
    scopeLabel: 'regatta-test-asts',
    controller: { app: 'asts', ...options },
  });
  const kube = (): KubeClient => layer.client;
  const pods = (ns: string) => livePods(kube(), ns);
  const get = (ns: string, name: string) => kube().get<StatefulSet>({ ...ASTS, namespace: ns, name });

  return {
    get client() {
      return kube();
    },
    get controller() {
      return layer.controller;
    },
    startController: (instance) => layer.startController(instance),
    namespace: () => layer.namespace(),
    pods,
    claims: async (ns) => (await kube().list<KubeObject>({ ...PVC, namespace: ns })).items,
    get,
    create: (sts) => kube().create<StatefulSet>(sts),
    events: (ns, reason) => eventsAbout(kube(), ns, 'StatefulSet', reason),
    setImage: (ns, name, image) => setTemplateImage(kube(), { ...ASTS, namespace: ns, name }, image),
    async patch(ns, name, patch) {
      await kube().patch({ ...ASTS, namespace: ns, name }, patch, { type: 'merge' });
    },
    controllerLog: () => layer.controllerLog(),
    get jaegerQuery() {
      return layer.jaegerQuery;
    },
    rolloutSpans: async (ns, name) => rolloutTraceSpans(layer.jaegerQuery, await get(ns, name)),
    observed: (ns, name) => waitObserved(() => get(ns, name)),
    async settled(ns, name, replicas, timeoutMs = 90_000) {
      await expect
        .poll(
          async () => {
            const s = await get(ns, name);
            const st = s.status;
            return (
              st?.observedGeneration === s.metadata?.generation &&
              st?.replicas === replicas &&
              st.readyReplicas === replicas &&
              st.updatedReplicas === replicas &&
              st.currentRevision === st.updateRevision &&
              (await pods(ns)).length === replicas
            );
          },
          { timeout: timeoutMs, interval: 500 },
        )
        .toBe(true);
      return get(ns, name);
    },
  };
}

export { POD as POD_KIND };
