// The UnitedDeployment scenario harness: each scenario file gets its own watcher, uniteddeployment program and the
// cloneset and asts programs its subsets may need (own bus prefix, own lease namespace, webhooks scoped to its
// namespaces) on the shared local cluster, and six simulated nodes over the zones east, west and central (two each,
// as the seed's example), shared by the run's UnitedDeployment files and left for the run. apps/v1 StatefulSets and Deployments are run by the cluster's
// kube-controller-manager. Helpers read what a user reads: pods per zone, the UnitedDeployment's status, events.
import { expect } from 'vitest';
import type { CoreEvent, KubeClient, KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import {
  createTestNode,
  eventsAbout,
  livePods,
  testNodeToleration,
  useScenarioLayer,
  type JaegerSpan,
  type Pod,
} from '@regatta/testing';

export { isReady, imageOf, type JaegerSpan, type Pod } from '@regatta/testing';
export type { CoreEvent } from '@regatta/kube';

/** Objects are written as the seed writes them (v1alpha1); status is read through v1beta1, the stored version. */
export const UD = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' } as const;
export const UD_V1BETA1 = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'UnitedDeployment' } as const;
export const ZONES = ['east', 'west', 'central'] as const;
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;

export interface SubsetStatus {
  name: string;
  replicas: number;
  readyReplicas: number;
  partition: number;
  conditions?: { type: string; status: string; reason?: string }[];
}
export interface UnitedDeploymentStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  updatedReplicas: number;
  updatedReadyReplicas?: number;
  currentRevision?: string;
  updatedRevision?: string;
  subsetReplicas?: Record<string, number>;
  subsetStatuses?: SubsetStatus[];
  updateStatus?: { updatedRevision?: string; currentPartitions?: Record<string, number> };
  conditions?: { type: string; status: string; reason?: string; message?: string }[];
  labelSelector?: string;
}
export interface UnitedDeployment extends KubeObject {
  spec: Record<string, unknown> & { replicas?: number };
  status?: UnitedDeploymentStatus;
}

export interface UnitedDeploymentScenarios {
  readonly client: KubeClient;
  /** This file's nodes by zone. */
  readonly nodesByZone: Readonly<Record<string, string[]>>;
  readonly controller: ManagedProcess;
  startController(instance: string): Promise<ManagedProcess>;
  namespace(): Promise<string>;
  pods(ns: string): Promise<Pod[]>;
  /** Live pods per zone of the node they run on ('' for pods not scheduled). */
  podsPerZone(ns: string): Promise<Record<string, number>>;
  unitedDeployment(ns: string, name: string): Promise<UnitedDeployment>;
  create(ud: UnitedDeployment): Promise<UnitedDeployment>;
  patch(ns: string, name: string, patch: Record<string, unknown>): Promise<void>;
  /** The subset workloads of a kind in `ns` (apiVersion/kind of the template's kind). */
  workloads(ns: string, gvk: { apiVersion: string; kind: string }): Promise<KubeObject[]>;
  events(ns: string, reason?: string): Promise<CoreEvent[]>;
  /** Adds a node of this file in `zone` (removed after the file; give it a zone of its own). */
  addNode(zone: string, options?: { capacity?: string; labels?: Record<string, string> }): Promise<string>;
  controllerLog(): string;
  /** What the running program's `/metrics` answers. */
  metrics(): Promise<string>;
  /** Waits until the status shows `replicas` ready pods at the update revision for this generation. */
  settled(ns: string, name: string, replicas: number, timeoutMs?: number): Promise<UnitedDeployment>;
  /** Deletes the UnitedDeployment with that propagation policy (`Orphan` leaves its subset workloads). */
  remove(ns: string, name: string, propagationPolicy: 'Orphan' | 'Background' | 'Foreground'): Promise<void>;
  /**
   * The traces of service `regatta-uniteddeployment` about UnitedDeployments of `ns` (docs/uniteddeployment.md
   * "Following a change"), as Jaeger holds them; [] without Jaeger.
   */
  traces(ns: string): Promise<UnitedDeploymentTrace[]>;
}

export interface UnitedDeploymentTrace {
  traceID: string;
  /** Each span with the other traces it links to (Jaeger's references into another trace). */
  spans: (JaegerSpan & { links: string[] })[];
}

/**
 * The zone nodes are test nodes (tainted `regatta-test-ud`) so that the pods of other files' workloads (a DaemonSet
 * runs on every node it tolerates) stay off them; the UnitedDeployments of these files tolerate the taint in every
 * subset kind's template.
 */
const TEMPLATE_KINDS = ['statefulSetTemplate', 'advancedStatefulSetTemplate', 'cloneSetTemplate', 'deploymentTemplate'];

function tolerateZoneNodes(ud: UnitedDeployment): UnitedDeployment {
  const out = structuredClone(ud);
  const templates = (out.spec as { template?: Record<string, unknown> } | undefined)?.template ?? {};
  for (const kind of TEMPLATE_KINDS) {
    const podSpec = (templates[kind] as { spec?: { template?: { spec?: { tolerations?: unknown[] } } } } | undefined)
      ?.spec?.template?.spec;
    if (podSpec) podSpec.tolerations = [...(podSpec.tolerations ?? []), testNodeToleration('ud')];
  }
  return out;
}

export function useUnitedDeploymentScenarios(
  options: { env?: Record<string, string>; webhooks?: boolean } = {},
): UnitedDeploymentScenarios {
  const nodesByZone: Record<string, string[]> = {};
  const layer = useScenarioLayer({
    lease: 'ud',
    short: 'ud',
    scopeLabel: 'regatta-test-ud',
    controller: { app: 'uniteddeployment', ...options },
    async start(l) {
      // the zone nodes, shared by every UnitedDeployment file of the run (pods of any file may land on any of them)
      for (const zone of ZONES) {
        for (let i = 1; i <= 2; i++) {
          const name = await createTestNode(l.client, `node-ud-${zone}-${i}`, 'ud', { zone, shared: true });
          (nodesByZone[zone] ??= []).push(name);
        }
      }
      await l.startProgram('cloneset', 'a', {}, { webhook: true });
      await l.startProgram('asts', 'a', {}, { webhook: true });
    },
  });
  const kube = (): KubeClient => layer.client;

  const pods = (ns: string) => livePods(kube(), ns);
  const unitedDeployment = (ns: string, name: string) => kube().get<UnitedDeployment>({ ...UD_V1BETA1, namespace: ns, name });
  const zoneOfNode = new Map<string, string>();
  const zoneOf = async (node: string): Promise<string> => {
    if (!node) return '';
    if (!zoneOfNode.has(node)) {
      const n = await kube().get({ ...NODE, name: node });
      zoneOfNode.set(node, n.metadata?.labels?.[ZONE_LABEL] ?? '');
    }
    return zoneOfNode.get(node) ?? '';
  };

  return {
    get client() {
      return kube();
    },
    get nodesByZone() {
      return nodesByZone;
    },
    get controller() {
      return layer.controller;
    },
    startController: (instance) => layer.startController(instance),
    namespace: () => layer.namespace(),
    pods,
    async podsPerZone(ns) {
      const out: Record<string, number> = {};
      for (const p of await pods(ns)) {
        const zone = await zoneOf((p.spec as { nodeName?: string }).nodeName ?? '');
        out[zone] = (out[zone] ?? 0) + 1;
      }
      return out;
    },
    unitedDeployment,
    create: (ud) => kube().create<UnitedDeployment>(tolerateZoneNodes(ud)),
    async patch(ns, name, patch) {
      await kube().patch({ ...UD, namespace: ns, name }, patch, { type: 'merge' });
    },
    async workloads(ns, gvk) {
      return (await kube().list({ ...gvk, namespace: ns })).items;
    },
    events: (ns, reason) => eventsAbout(kube(), ns, 'UnitedDeployment', reason),
    async addNode(zone, o = {}) {
      const name = await layer.addTestNode('ud', { zone, ...o });
      (nodesByZone[zone] ??= []).push(name);
      return name;
    },
    controllerLog: () => layer.controllerLog(),
    async metrics() {
      return (await fetch(`${layer.controllerHealth}/metrics`)).text();
    },
    async settled(ns, name, replicas, timeoutMs = 120_000) {
      // polls a summary, so that a timeout shows what differed
      await expect
        .poll(
          async () => {
            const ud = await unitedDeployment(ns, name);
            const s = ud.status;
            return {
              observed: s?.observedGeneration === ud.metadata?.generation,
              replicas: s?.replicas,
              readyReplicas: s?.readyReplicas,
              updatedReadyReplicas: s?.updatedReadyReplicas,
              pods: (await pods(ns)).length,
            };
          },
          { timeout: timeoutMs, interval: 1000 },
        )
        .toEqual({ observed: true, replicas, readyReplicas: replicas, updatedReadyReplicas: replicas, pods: replicas });
      return unitedDeployment(ns, name);
    },
    async remove(ns, name, propagationPolicy) {
      await kube().delete({ ...UD_V1BETA1, namespace: ns, name }, { propagationPolicy });
    },
    async traces(ns) {
      const jaegerQuery = layer.jaegerQuery;
      if (!jaegerQuery) return [];
      const q = new URLSearchParams({
        service: 'regatta-uniteddeployment',
        tags: JSON.stringify({ 'k8s.namespace.name': ns }),
        lookback: '2h',
        limit: '200',
      });
      const res = await fetch(`${jaegerQuery}/api/traces?${q.toString()}`);
      if (!res.ok) return [];
      const body = (await res.json()) as {
        data?: {
          traceID: string;
          spans: {
            operationName: string;
            tags: { key: string; value: unknown }[];
            references?: { traceID: string }[];
          }[];
        }[];
      };
      return (body.data ?? []).map((t) => ({
        traceID: t.traceID,
        spans: t.spans.map((sp) => ({
          operationName: sp.operationName,
          tags: Object.fromEntries(sp.tags.map((tag) => [tag.key, tag.value])),
          links: (sp.references ?? []).map((r) => r.traceID).filter((id) => id !== t.traceID),
        })),
      }));
    },
  };
}
