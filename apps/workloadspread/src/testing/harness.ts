// The WorkloadSpread scenario harness: a watcher, the workloadspread program and the CloneSet program on the shared
// local cluster (own bus prefix, own lease namespace, webhooks scoped to the file's namespaces) and helpers that read
// what a user reads: a CloneSet's pods by the zone of their node, the spread's status.
import type { CloneSet, Pod, WorkloadSpread } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { afterAll } from 'vitest';
import { useScenarioLayer, type ScenarioLayer, runKubectl } from '@regatta/testing';

export const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' } as const;
export const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
export const ZONE = 'topology.kubernetes.io/zone';
const ADMISSION = 'admissionregistration.k8s.io/v1';

export const inZone = (zone: string) => ({ matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] });

export function cloneSet(ns: string, name: string, replicas: number): CloneSet {
  return {
    ...CS,
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] },
      },
    },
  } as CloneSet;
}

export interface WorkloadSpreadScenarios {
  readonly client: KubeClient;
  readonly layer: ScenarioLayer;
  namespace(): Promise<string>;
  create<T extends KubeObject>(obj: T): Promise<T>;
  spread(ns: string, name: string): Promise<WorkloadSpread | undefined>;
  /** The CloneSet's live pods. */
  pods(ns: string, app: string): Promise<Pod[]>;
  /** The live pods of the CloneSet per zone of their node (unscheduled: `''`). */
  zones(ns: string, app: string): Promise<Record<string, number>>;
  scale(ns: string, name: string, replicas: number): Promise<void>;
  kubectl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** The names of the pod webhook configuration's entries (one per spread). */
  podWebhookEntries(): Promise<string[]>;
}

export function useWorkloadSpreadScenarios(): WorkloadSpreadScenarios {
  const layer = useScenarioLayer({
    lease: 'ws',
    short: 'ws',
    scopeLabel: 'regatta-test-ws',
    controller: { app: 'workloadspread', webhooks: true },
    // the CloneSets whose pods are spread
    start: async (l) => {
      await l.startProgram('cloneset', 'a', {}, { webhook: true });
    },
  });
  afterAll(async () => {
    // the pod webhook's configuration is the program's own (the layer removes regatta-<app>-<id> only)
    await layer.client
      .delete({ apiVersion: ADMISSION, kind: 'MutatingWebhookConfiguration', name: `regatta-workloadspread-pods-${layer.id}` })
      .catch(() => undefined);
  });
  const kube = () => layer.client;
  const pods = async (ns: string, app: string) =>
    (await kube().list<Pod>({ apiVersion: 'v1', kind: 'Pod', namespace: ns }, { labelSelector: `app=${app}` })).items.filter(
      (p) => !p.metadata?.deletionTimestamp,
    );
  return {
    get client() {
      return kube();
    },
    layer,
    namespace: () => layer.namespace(),
    create: (obj) => kube().create(obj),
    spread: (ns, name) => kube().getOrUndefined<WorkloadSpread>({ ...WS, namespace: ns, name }),
    pods,
    async zones(ns, app) {
      const nodes = new Map(
        (await kube().list({ apiVersion: 'v1', kind: 'Node' })).items.map((n) => [n.metadata?.name ?? '', n.metadata?.labels?.[ZONE] ?? '']),
      );
      const out: Record<string, number> = {};
      for (const p of await pods(ns, app)) {
        const zone = nodes.get(p.spec?.nodeName ?? '') ?? '';
        out[zone] = (out[zone] ?? 0) + 1;
      }
      return out;
    },
    async scale(ns, name, replicas) {
      await kube().patch({ ...CS, namespace: ns, name }, { spec: { replicas } }, { type: 'merge' });
    },
    async podWebhookEntries() {
      const cfg = await kube().getOrUndefined<KubeObject & { webhooks?: { name: string }[] }>({
        apiVersion: ADMISSION,
        kind: 'MutatingWebhookConfiguration',
        name: `regatta-workloadspread-pods-${layer.id}`,
      });
      return (cfg?.webhooks ?? []).map((w) => w.name);
    },
    kubectl: (args) => runKubectl(layer.kubeconfig, args),
  };
}
