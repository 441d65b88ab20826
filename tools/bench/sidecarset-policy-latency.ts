// Benchmark 8c (issue 45): pod creation with the sidecar injected by a MutatingAdmissionPolicy against the same
// injection by the sidecarset pod webhook (docs/adr/0089-sidecarset-injection-policies.md). On a cluster of its own
// (API server, etcd, nats-server; no scheduler: pods stay Pending, only the create call is measured), the watcher and
// the sidecarset program running, two SidecarSets with the same sidecar: one compiled into a policy, one the webhook
// injects (shareVolumePolicy keeps it there; the pods have no mounts to share, so the two inject the same container).
// Pods selected by each, and unselected ones, are created one at a time, the three kinds alternating pod by pod (the
// load of a shared machine drifts). Latency is client-side, from the POST to its response. Nothing is a timed
// assertion: the figures and the policy/webhook ratio are printed.
import { generateCrds, type Pod } from '@regatta/api';
import { KubeClient, type KubeObject } from '@regatta/kube';
import { installCrds, waitFor, type LocalCluster } from '@regatta/local-cluster';
import { nowMs, summarize, type Summary } from './common.js';
import { benchSupervisor } from './rollout-programs.js';

export interface ScsPolicyLatencyCtx {
  cluster: LocalCluster;
  logsDir: string;
  /** Pods measured per kind. */
  pods: number;
  /** Pods of each kind created first, not counted. */
  warmup: number;
  log: (line: string) => void;
}

export type ScsPolicyPhase = 'policy' | 'webhook' | 'unselected';

export interface ScsPolicyLatencyResult {
  pods: number;
  summaries: Record<ScsPolicyPhase, Summary>;
  /** Pods whose create response carried the sidecar, per kind. */
  injected: Record<ScsPolicyPhase, number>;
}

const NS = 'bench-policy';
const SCS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet' } as const;
const LABEL: Record<ScsPolicyPhase, Record<string, string>> = {
  policy: { 'bench-injection': 'policy' },
  webhook: { 'bench-injection': 'webhook' },
  unselected: { 'bench-injection': 'none' },
};

const pod = (name: string, labels: Record<string, string>): Pod =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, labels },
    spec: { containers: [{ name: 'main', image: 'nginx:alpine' }] },
  }) as Pod;

const sidecarSet = (name: string, labels: Record<string, string>, extra: Record<string, unknown>): KubeObject =>
  ({
    ...SCS,
    metadata: { name },
    spec: {
      selector: { matchLabels: labels },
      containers: [{ name: 'sidecar', image: 'busybox:1.36', command: ['sleep', '999d'], ...extra }],
    },
  }) as KubeObject;

export async function benchSidecarSetPolicyLatency(ctx: ScsPolicyLatencyCtx): Promise<ScsPolicyLatencyResult> {
  const { cluster, log, pods: n, warmup } = ctx;
  const { kubeconfig } = cluster.endpoints;
  const client = KubeClient.fromKubeconfigFile(kubeconfig, { userAgent: 'regatta-bench' });
  await installCrds(kubeconfig, generateCrds());
  for (const name of ['regatta-system', NS]) await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  const supervisor = benchSupervisor({ cluster, logsDir: ctx.logsDir, log }, 'benchscp_', {
    REGATTA_SIDECARSET_REVISION_NAMESPACE: 'regatta-system',
  });
  let seq = 0;
  const createOne = async (kind: ScsPolicyPhase): Promise<{ ms: number; injected: boolean }> => {
    const t0 = nowMs();
    const created = await client.create(pod(`${kind.slice(0, 3)}-${seq++}`, LABEL[kind]));
    return { ms: nowMs() - t0, injected: (created.spec?.containers ?? []).some((c) => c.name === 'sidecar') };
  };
  try {
    await supervisor.start('watcher', 'watcher', '/healthz');
    await supervisor.start('sidecarset', 'sidecarset', '/readyz', { webhook: true });
    await client.create(sidecarSet('bench-policy', LABEL.policy, {}));
    await client.create(sidecarSet('bench-webhook', LABEL.webhook, { shareVolumePolicy: { type: 'enabled' } }));
    // the policy is written by the program and enforced by the API server a moment later
    await waitFor('the policy to inject', async () => (await createOne('policy')).injected, { timeoutMs: 60_000, intervalMs: 500 });
    await waitFor('the webhook to inject', async () => (await createOne('webhook').catch(() => ({ injected: false }))).injected, {
      timeoutMs: 60_000,
      intervalMs: 500,
    });
    const kinds: ScsPolicyPhase[] = ['policy', 'webhook', 'unselected'];
    for (let i = 0; i < warmup; i++) for (const k of kinds) await createOne(k);
    const latencies: Record<ScsPolicyPhase, number[]> = { policy: [], webhook: [], unselected: [] };
    const injected: Record<ScsPolicyPhase, number> = { policy: 0, webhook: 0, unselected: 0 };
    log(`${n} pods of each kind (after ${warmup} warm-up): policy-injected, webhook-injected, unselected, alternating`);
    for (let i = 0; i < n; i++) {
      for (const k of i % 2 === 0 ? kinds : [...kinds].reverse()) {
        const r = await createOne(k);
        latencies[k].push(r.ms);
        if (r.injected) injected[k]++;
      }
    }
    return {
      pods: n,
      summaries: { policy: summarize(latencies.policy), webhook: summarize(latencies.webhook), unselected: summarize(latencies.unselected) },
      injected,
    };
  } finally {
    await supervisor.stopAll();
    await client.close();
  }
}

/** The figures as printed: p50 / p99 per kind, the policy/webhook ratios and what each adds to an unselected pod. */
export function reportSidecarSetPolicyLatency(r: ScsPolicyLatencyResult): string {
  const { policy, webhook, unselected } = r.summaries;
  const row = (k: ScsPolicyPhase) =>
    `  ${k.padEnd(10)} p50 ${r.summaries[k].p50.toFixed(1).padStart(7)} ms  p99 ${r.summaries[k].p99.toFixed(1).padStart(7)} ms  ` +
    `injected ${r.injected[k]}/${r.pods}`;
  return [
    `8c. pod creation, sidecar injected by MutatingAdmissionPolicy vs webhook (${r.pods} pods each)`,
    row('policy'),
    row('webhook'),
    row('unselected'),
    `  policy/webhook ratio: p50 ${(policy.p50 / webhook.p50).toFixed(2)}, p99 ${(policy.p99 / webhook.p99).toFixed(2)}`,
    `  over unselected: policy +${(policy.p99 - unselected.p99).toFixed(1)} ms p99, webhook +${(webhook.p99 - unselected.p99).toFixed(1)} ms p99`,
  ].join('\n');
}
