// API overload as a real cluster produces it: kube-apiserver with API Priority and Fairness, a priority level of 3
// seats that rejects (no queues) for one ServiceAccount, and that account flooding it with lists. The API server
// answers 429 with Retry-After; a program's client waits the Retry-After and sends again (client-rate-limit.ts), so
// its requests succeed, and its token bucket spreads a burst out (docs/adr/0091-client-rate-limits.md).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClient, type KubeResponse } from '@regatta/kube';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCluster } from './cluster.js';
import { requestServiceAccountToken, tokenKubeconfig } from './program-rbac.js';

const NS = 'flood';
const SA = 'flooder';
let cluster: LocalCluster | undefined;
let dir = '';
let kubeconfigYaml = '';

/** A client of the flooding ServiceAccount; `codes` collects the HTTP status of every request it sends. */
function flooder(codes: number[], options: { maxThrottleRetries?: number; rateLimit?: { qps: number; burst: number } } = {}) {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml);
  return new KubeClient(kc, { ...options, onResponse: (r: KubeResponse) => codes.push(r.code ?? 0) });
}

/** `n` lists at once of the namespace's ConfigMaps; the errors of those that failed. */
async function flood(client: KubeClient, n: number): Promise<unknown[]> {
  const results = await Promise.allSettled(
    Array.from({ length: n }, () => client.list({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS })),
  );
  return results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'regatta-apf-'));
  cluster = await LocalCluster.start({
    dir,
    controllerManager: false,
    scheduler: false,
    nats: false,
    jaeger: false,
    priorityAndFairness: true,
  });
  const kubeconfig = cluster.endpoints.kubeconfig;
  const admin = KubeClient.fromKubeconfigFile(kubeconfig);
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await admin.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SA, namespace: NS } });
  // a Role of its own: `view` is aggregated by kube-controller-manager, which this cluster does not run
  await admin.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'read-configmaps', namespace: NS },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
  });
  await admin.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'read-configmaps', namespace: NS },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-configmaps' },
    subjects: [{ kind: 'ServiceAccount', name: SA, namespace: NS }],
  });
  await admin.create({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'tight' },
    spec: {
      type: 'Limited',
      limited: { nominalConcurrencyShares: 1, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Reject' } },
    },
  });
  await admin.create({
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
    kind: 'FlowSchema',
    metadata: { name: 'tight' },
    spec: {
      priorityLevelConfiguration: { name: 'tight' },
      matchingPrecedence: 100,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: SA, namespace: NS } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }],
        },
      ],
    },
  });
  // lists of 300 ConfigMaps hold a seat long enough for concurrent ones to find none
  const data = { blob: 'x'.repeat(2000) };
  for (let i = 0; i < 300; i += 30) {
    await Promise.all(
      Array.from({ length: 30 }, (_, j) =>
        admin.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i + j}`, namespace: NS }, data }),
      ),
    );
  }
  const token = await requestServiceAccountToken(admin, NS, SA, 3600);
  kubeconfigYaml = tokenKubeconfig(readFileSync(kubeconfig, 'utf8'), SA, token);
  await admin.close();
}, 180_000);

afterAll(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('API Priority and Fairness rejections (a real kube-apiserver)', () => {
  it('a client that does not retry sees 429 TooManyRequests: the overload is real', { timeout: 120_000 }, async () => {
    const codes: number[] = [];
    const client = flooder(codes, { maxThrottleRetries: 0 });
    const failed = await flood(client, 60);
    await client.close();
    expect(codes).toContain(429);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((e) => (e as { code?: string }).code === 'REGATTA_KUBE_TOO_MANY_REQUESTS')).toBe(true);
  });

  it('a program’s client waits out every rejection: all requests succeed', { timeout: 300_000 }, async () => {
    const codes: number[] = [];
    const client = flooder(codes);
    const failed = await flood(client, 60);
    await client.close();
    expect(failed).toEqual([]);
    // the server did throttle it (else this test tests nothing), and every request ended with a 200
    expect(codes).toContain(429);
    expect(codes.filter((c) => c === 200)).toHaveLength(60);
  });

  it('a rate-limited client spreads its requests out: qps 20, burst 5 sends 45 requests in no less than 2 s', { timeout: 120_000 }, async () => {
    const codes: number[] = [];
    const client = flooder(codes, { rateLimit: { qps: 20, burst: 5 } });
    const started = performance.now();
    const failed = await flood(client, 45);
    const seconds = (performance.now() - started) / 1000;
    await client.close();
    expect(failed).toEqual([]);
    // structural: 40 requests past the burst wait their tokens, 1/20 s each
    expect(seconds).toBeGreaterThanOrEqual(1.95);
  });
});
