// The ResourceDistribution scenario harness: a watcher (with a Secret hash key) and the resourcedistribution program
// on the shared local cluster, both on a bus prefix of their own, and helpers that read what a user reads (copies,
// the distribution's status, kubectl's output), the bus's buckets as they are, and the program's traces in Jaeger.
// ResourceDistributions are cluster-scoped and the seed's must apply unchanged, so the program is not scoped: all the
// scenarios that need it live in one file (resourcedistribution.int.test.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { connectBus, type Bus } from '@regatta/bus';
import type { ResourceDistribution } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import { useScenarioLayer, runKubectl } from '@regatta/testing';

const FIXTURES = fileURLToPath(new URL('../../../../libs/api/src/resourcedistribution/fixtures/', import.meta.url));
export const RD = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution' } as const;
export const RD_V1ALPHA1 = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution' } as const;

export const seedText = (file: string): string => readFileSync(`${FIXTURES}${file}`, 'utf8');

/** A span as Jaeger's query API returns it, with its parent's span id. */
export interface TraceSpan {
  operationName: string;
  spanId: string;
  parentSpanId?: string;
  tags: Record<string, unknown>;
}

export interface ResourceDistributionScenarios {
  readonly client: KubeClient;
  readonly id: string;
  readonly controller: ManagedProcess;
  startController(instance: string, env?: NodeJS.ProcessEnv): Promise<ManagedProcess>;
  kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  distribution(name: string): Promise<ResourceDistribution>;
  /** Every value every bucket of this file's bus prefix holds (all revisions kept), as text. */
  busContents(): Promise<string[]>;
  /** Spans of this program's recent traces that have the operation. */
  traces(operation: string): Promise<TraceSpan[][]>;
}

export function useResourceDistributionScenarios(): ResourceDistributionScenarios {
  let bus: Bus | undefined;
  const layer = useScenarioLayer({
    lease: 'rd',
    short: 'rd',
    env: (leaseNs) => ({ REGATTA_RESOURCEDISTRIBUTION_NAMESPACE: leaseNs! }),
    watcherEnv: { REGATTA_SECRET_HASH_KEY: randomBytes(32).toString('base64url') },
    controller: { app: 'resourcedistribution', webhooks: true },
  });
  const prefix = `rd${layer.id}_`;

  beforeAll(async () => {
    bus = await connectBus({ servers: layer.nats, name: `rd-test-${layer.id}`, prefix });
  });
  afterAll(async () => {
    await bus?.close();
  });

  const kube = (): KubeClient => layer.client;

  return {
    get client() {
      return kube();
    },
    id: layer.id,
    get controller() {
      return layer.controller;
    },
    async startController(instance, env = {}) {
      // a scoped instance (another program beside this file's controller) leaves `controller` as it is
      if (!env['REGATTA_NAMESPACE_SELECTOR']) return layer.startController(instance, env);
      const p = await layer.startProgram('resourcedistribution', instance, env, { webhook: true });
      return p.process;
    },
    kubectl: (args, input) => runKubectl(layer.kubeconfig, args, input),
    distribution: (name) => kube().get<ResourceDistribution>({ ...RD, name }),
    async busContents() {
      if (!bus) throw new Error('no bus');
      const out: string[] = [];
      const decoder = new TextDecoder();
      for await (const status of bus.kvm.list()) {
        if (!status.bucket.startsWith(prefix)) continue;
        const kv = await bus.kvm.open(status.bucket);
        const iter = await kv.history({ key: '>' });
        // the history iterator ends once it delivered every revision it holds
        for await (const e of iter) out.push(`${status.bucket} ${e.key} ${decoder.decode(e.value)}`);
      }
      return out;
    },
    async traces(operation) {
      const jaegerQuery = layer.jaegerQuery;
      if (!jaegerQuery) return [];
      const res = await fetch(
        `${jaegerQuery}/api/traces?service=regatta-resourcedistribution&operation=${encodeURIComponent(operation)}&limit=50&lookback=1h`,
      );
      if (!res.ok) return [];
      const body = (await res.json()) as {
        data?: {
          spans: {
            operationName: string;
            spanID: string;
            references?: { refType: string; spanID: string }[];
            tags: { key: string; value: unknown }[];
          }[];
        }[];
      };
      return (body.data ?? []).map((t) =>
        t.spans.map((sp) => ({
          operationName: sp.operationName,
          spanId: sp.spanID,
          ...(sp.references?.[0] ? { parentSpanId: sp.references[0].spanID } : {}),
          tags: Object.fromEntries(sp.tags.map((tag) => [tag.key, tag.value])),
        })),
      );
    },
  };
}

export type { KubeObject };
