// PodUnavailableBudget over the Advanced StatefulSet and the Advanced DaemonSet (docs/podunavailablebudget.md
// "Workloads"): an in-place or recreate rollout whose maxUnavailable is higher than the budget's waits for budget, so
// at no moment are more pods unavailable than the budget allows, and it completes.
import { describe, expect, it } from 'vitest';
import type { Pod, PodUnavailableBudget } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { isReady, livePods, recordPods, useScenarioLayer, type PodRecorder } from '@regatta/testing';

const GATES = 'PodUnavailableBudgetDeleteGate=true,PodUnavailableBudgetUpdateGate=true';
const h = useScenarioLayer({
  lease: 'pubw',
  short: 'pubw',
  scopeLabel: 'regatta-test-pubw',
  env: { REGATTA_FEATURE_GATES: GATES },
  controller: { app: 'podunavailablebudget', webhooks: true },
  // the workload programs whose rollouts wait for budget
  start: async (layer) => {
    await layer.startProgram('asts', 'a', {}, { webhook: true });
    await layer.startProgram('ads', 'a', {}, { webhook: true });
  },
});
const POLL = { timeout: 60_000, interval: 500 };
const ROLLOUT = { timeout: 150_000, interval: 1000 };
const PUB = { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget' } as const;
const ASTS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } as const;
const ADS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' } as const;
const c = (): KubeClient => h.client;

const numbers = async (ns: string, name: string) => {
  const s = (await c().getOrUndefined<PodUnavailableBudget & KubeObject>({ ...PUB, namespace: ns, name }))
    ?.status;
  return s && [s.unavailableAllowed, s.currentAvailable, s.desiredAvailable, s.totalReplicas];
};
const budget = (ns: string, name: string, spec: PodUnavailableBudget['spec'], annotations = {}) =>
  c().create({ ...PUB, metadata: { name, namespace: ns, annotations }, spec } as KubeObject);
const template = (app: string, image: string) => ({
  metadata: { labels: { app } },
  spec: {
    readinessGates: [{ conditionType: 'InPlaceUpdateReady' }],
    containers: [{ name: 'main', image }],
  },
});
/** The namespace's events of that reason. */
const eventsOf = async (ns: string, reason: string) =>
  (
    await c().list<KubeObject & { reason?: string }>({ apiVersion: 'v1', kind: 'Event', namespace: ns })
  ).items.filter((e) => e.reason === reason);
const updatedReady = async (ns: string, image: string) =>
  (await livePods(c(), ns)).filter((p) => p.spec?.containers?.[0]?.image === image && isReady(p)).length;

/**
 * The most pods unavailable at one moment of the record: a pod is unavailable while it is not ready, being deleted
 * or gone (pods are keyed by name: an Advanced StatefulSet's recreated pod keeps it).
 */
function worstUnavailable(rec: PodRecorder): number {
  const latest = new Map<string, Pod>();
  let worst = 0;
  for (const s of [...rec.snapshots].sort((a, b) => a.at - b.at)) {
    latest.set(s.pod.metadata?.name ?? '', s.pod);
    const down = [...latest.values()].filter((p) => p.metadata?.deletionTimestamp || !isReady(p)).length;
    worst = Math.max(worst, down);
  }
  return worst;
}

describe('an Advanced StatefulSet in-place rollout under a budget with a lower maxUnavailable', () => {
  it('never has more pods unavailable than the budget allows, and completes', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', {
      targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web' },
      maxUnavailable: 1,
    });
    await c().create({
      ...ASTS,
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 4,
        serviceName: 'web',
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { app: 'sts' } },
        template: template('sts', 'nginx:1.28'),
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', maxUnavailable: 3 },
        },
      },
    } as KubeObject);
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 4, 3, 4]);
    const rec = await recordPods(c(), ns);
    await c().patch(
      { ...ASTS, namespace: ns, name: 'web' },
      { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.29' }] } } } },
      { type: 'merge' },
    );
    await expect.poll(() => updatedReady(ns, 'nginx:1.29'), ROLLOUT).toBe(4);
    const worst = worstUnavailable(rec);
    expect(worst).toBeGreaterThan(0); // the rollout did make pods unavailable…
    expect(worst).toBeLessThanOrEqual(1); // …never more than the budget allows
    // in place: the four pods kept
    expect(new Set(rec.snapshots.map((s) => s.pod.metadata?.uid)).size).toBe(4);
    // the refused updates waited for budget: no failure reported
    expect(await eventsOf(ns, 'FailedUpdatePodInPlace')).toEqual([]);
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 4, 3, 4]);
  });
});

describe('an Advanced StatefulSet recreate rollout under a budget with a lower maxUnavailable', () => {
  it('deletes one pod at a time: a refused deletion waits for budget, and the rollout completes', async () => {
    const ns = await h.namespace();
    await budget(ns, 'db-pub', {
      targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'db' },
      maxUnavailable: 1,
    });
    await c().create({
      ...ASTS,
      metadata: { name: 'db', namespace: ns },
      spec: {
        replicas: 3,
        serviceName: 'db',
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] },
        },
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { podUpdatePolicy: 'ReCreate', maxUnavailable: 3 },
        },
      },
    } as KubeObject);
    await expect.poll(() => numbers(ns, 'db-pub'), POLL).toEqual([1, 3, 2, 3]);
    const rec = await recordPods(c(), ns);
    await c().patch(
      { ...ASTS, namespace: ns, name: 'db' },
      { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.29' }] } } } },
      { type: 'merge' },
    );
    // a recreated pod keeps its name: its deletion's record may hold it for up to 20 s (upstream DeletionTimeout)
    await expect.poll(() => updatedReady(ns, 'nginx:1.29'), { timeout: 240_000, interval: 1000 }).toBe(3);
    const worst = worstUnavailable(rec);
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(1);
    // recreated: three new pods beside the three old ones
    expect(new Set(rec.snapshots.map((s) => s.pod.metadata?.uid)).size).toBe(6);
    expect(await eventsOf(ns, 'FailedDelete')).toEqual([]);
  });
});

describe('an Advanced DaemonSet in-place rollout under a budget with a lower maxUnavailable', () => {
  it('never has more pods unavailable than the budget allows, and completes', async () => {
    const ns = await h.namespace();
    await c().create({
      ...ADS,
      metadata: { name: 'agent', namespace: ns },
      spec: {
        selector: { matchLabels: { app: 'ds' } },
        template: template('ds', 'nginx:1.28'),
        updateStrategy: {
          type: 'RollingUpdate',
          rollingUpdate: { rollingUpdateType: 'InPlaceIfPossible', maxUnavailable: '100%' },
        },
      },
    } as KubeObject);
    // settled: a ready pod on every node the DaemonSet should run on
    const settled = async () => {
      const ds = await c().get<
        KubeObject & { status?: { desiredNumberScheduled?: number; numberReady?: number } }
      >({ ...ADS, namespace: ns, name: 'agent' });
      const desired = ds.status?.desiredNumberScheduled ?? 0;
      const ready = (await livePods(c(), ns)).filter(isReady).length;
      return desired > 2 && ready === desired ? desired : 0;
    };
    await expect.poll(settled, POLL).toBeGreaterThan(0);
    const nodes = await settled();
    // a DaemonSet has no scale: the budget's total is the annotation (as upstream)
    await budget(
      ns,
      'agent-pub',
      { selector: { matchLabels: { app: 'ds' } }, maxUnavailable: 1 },
      { 'pub.kruise.io/protect-total-replicas': String(nodes) },
    );
    await expect.poll(() => numbers(ns, 'agent-pub'), POLL).toEqual([1, nodes, nodes - 1, nodes]);
    const rec = await recordPods(c(), ns);
    await c().patch(
      { ...ADS, namespace: ns, name: 'agent' },
      { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.29' }] } } } },
      { type: 'merge' },
    );
    await expect.poll(() => updatedReady(ns, 'nginx:1.29'), ROLLOUT).toBe(nodes);
    const worst = worstUnavailable(rec);
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThanOrEqual(1);
    expect(new Set(rec.snapshots.map((s) => s.pod.metadata?.uid)).size).toBe(nodes);
    expect(await eventsOf(ns, 'FailedUpdatePodInPlace')).toEqual([]);
    await expect.poll(() => numbers(ns, 'agent-pub'), POLL).toEqual([1, nodes, nodes - 1, nodes]);
  });
});
