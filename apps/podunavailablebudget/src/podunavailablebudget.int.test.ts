// PodUnavailableBudget scenarios on the shared local cluster's simulated nodes (spec: docs/podunavailablebudget.md,
// ADR 0080; upstream test/e2e/policy/v1alpha1/podunavailablebudget.go): what a user sees — the budget's status and
// `kubectl get pub`, evictions beyond the budget refused with upstream's message (naming Regatta); pods no budget
// selects deleted and evicted normally with the program killed or SIGSTOPped, guarded ones failing closed; a CloneSet
// in-place rollout under a budget with a lower maxUnavailable never exceeds the budget.
import { describe, expect, it } from 'vitest';
import type { CloneSet, Pod, PodUnavailableBudget } from '@regatta/api';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { isReady, livePods, recordPods, useScenarioLayer, runKubectl } from '@regatta/testing';

const GATES = 'PodUnavailableBudgetDeleteGate=true,PodUnavailableBudgetUpdateGate=true';
const h = useScenarioLayer({
  lease: 'pub',
  short: 'pub',
  scopeLabel: 'regatta-test-pub',
  env: { REGATTA_FEATURE_GATES: GATES },
  controller: { app: 'podunavailablebudget', webhooks: true },
  // the CloneSet program for the rollout scenario
  start: async (layer) => void (await layer.startProgram('cloneset', 'a', {}, { webhook: true })),
});
const POLL = { timeout: 60_000, interval: 500 };
const PUB = { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const c = (): KubeClient => h.client;

const pubOf = async (ns: string, name: string) =>
  c().getOrUndefined<PodUnavailableBudget & KubeObject>({ ...PUB, namespace: ns, name });
const numbers = async (ns: string, name: string) => {
  const s = (await pubOf(ns, name))?.status;
  return s && [s.unavailableAllowed, s.currentAvailable, s.desiredAvailable, s.totalReplicas];
};
const budget = (ns: string, name: string, spec: PodUnavailableBudget['spec']) =>
  c().create({ ...PUB, metadata: { name, namespace: ns }, spec } as KubeObject);

/** POST pods/<name>/eviction; the error's message, or undefined when admitted. */
async function evict(ns: string, name: string): Promise<string | undefined> {
  try {
    await c().request('POST', `/api/v1/namespaces/${ns}/pods/${name}/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: ns } },
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
async function remove(ns: string, name: string, timeoutMs?: number): Promise<string | undefined> {
  try {
    await c().request('DELETE', `/api/v1/namespaces/${ns}/pods/${name}`, timeoutMs ? { timeoutMs } : {});
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

function deployment(ns: string, name: string, replicas: number, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: ns },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] } },
    },
  } as KubeObject;
}
/** A bare pod (no controller) with `labels`; a dry run persists nothing. */
const createPod = (ns: string, name: string, labels: Record<string, string>, dryRun = false) =>
  c().create<Pod & KubeObject>(
    {
      ...POD,
      metadata: { name, namespace: ns, labels },
      spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] },
    },
    { dryRun },
  );
const relatedPub = (p: Pod) => p.metadata?.annotations?.['kruise.io/related-pub'];
const readyPods = async (ns: string, app: string) =>
  (await livePods(c(), ns)).filter((p) => p.metadata?.labels?.['app'] === app && isReady(p));

const kubectl = async (args: string[]): Promise<string> => (await runKubectl(h.kubeconfig, args)).stdout;

const REFUSED =
  'podunavailablebudget.policy.kruise.io "web-pub" is forbidden: pub unavailable allowed is negative';

describe('a budget over a Deployment (selector, maxUnavailable 1)', () => {
  it('counts the pods, marks them guarded, and refuses an eviction beyond the budget with upstream’s message', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
    await c().create(deployment(ns, 'web', 3, { app: 'web' }));
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 3, 2, 3]);
    const got = await kubectl(['get', 'pub', '-n', ns]);
    expect(got.split('\n')[0]).toMatch(/^NAME\s+ALLOWED\s+CURRENT\s+DESIRED\s+TOTAL\s*$/);
    expect(got).toMatch(/web-pub\s+1\s+3\s+2\s+3/);
    const pods = await readyPods(ns, 'web');
    expect(pods.map((p) => p.metadata?.labels?.['pub.regatta.dev/protected'])).toEqual([
      'true',
      'true',
      'true',
    ]);
    expect(pods.map((p) => p.metadata?.annotations?.['kruise.io/related-pub'])).toEqual([
      'web-pub',
      'web-pub',
      'web-pub',
    ]);

    // the first eviction spends the budget (recorded as disrupted), the second is refused
    expect(await evict(ns, pods[0]!.metadata!.name!)).toBeUndefined();
    const after = (await pubOf(ns, 'web-pub'))!.status!;
    expect(after.unavailableAllowed).toBe(0);
    expect(Object.keys(after.disruptedPods ?? {})).toEqual([pods[0]!.metadata!.name]);
    const refused = await evict(ns, pods[1]!.metadata!.name!);
    expect(refused).toContain(REFUSED);
    expect(refused).toContain('Regatta PodUnavailableBudget');
    // a delete too; and the pod opted out with pub.kruise.io/no-protect goes
    expect(await remove(ns, pods[1]!.metadata!.name!)).toContain(REFUSED);
    await c().patch(
      { ...POD, namespace: ns, name: pods[1]!.metadata!.name! },
      { metadata: { annotations: { 'pub.kruise.io/no-protect': 'true' } } },
      { type: 'merge' },
    );
    expect(await evict(ns, pods[1]!.metadata!.name!)).toBeUndefined();
    // the replacements come back ready: the budget is whole again
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 3, 2, 3]);
    expect((await pubOf(ns, 'web-pub'))?.status?.disruptedPods ?? {}).toEqual({});
    // a Warning on the refused pod
    const events = await c().list<KubeObject & { reason?: string }>({
      apiVersion: 'v1',
      kind: 'Event',
      namespace: ns,
    });
    expect(events.items.map((e) => e.reason)).toContain('PubPreventPodDeletion');
  });

  it('a budget deleted: its pods are unmarked, so they never reach the webhook again', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', { selector: { matchLabels: { app: 'gone' } }, minAvailable: '100%' });
    await c().create(deployment(ns, 'gone', 2, { app: 'gone' }));
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([0, 2, 2, 2]);
    await c().delete({ ...PUB, namespace: ns, name: 'web-pub' });
    await expect
      .poll(
        async () =>
          (await livePods(c(), ns)).map((p) => p.metadata?.labels?.['pub.regatta.dev/protected'] ?? '-'),
        POLL,
      )
      .toEqual(['-', '-']);
    const [p] = await readyPods(ns, 'gone');
    expect(await evict(ns, p!.metadata!.name!)).toBeUndefined();
  });
});

describe('a pod a budget selects names it from its creation (upstream pod_unavailable_budget.go, ADR 0096)', () => {
  it('a selected pod is created with kruise.io/related-pub, any other without; the entry follows the budget', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
    // the API server loads the budget's entry: a dry run shows it applied
    await expect
      .poll(async () => relatedPub(await createPod(ns, 'probe', { app: 'web' }, true)), POLL)
      .toBe('web-pub');
    expect(relatedPub(await createPod(ns, 'a', { app: 'web' }))).toBe('web-pub');
    expect(relatedPub(await createPod(ns, 'b', { app: 'free' }))).toBeUndefined();
    const entries = async () =>
      (
        (await c().getOrUndefined({
          apiVersion: 'admissionregistration.k8s.io/v1',
          kind: 'MutatingWebhookConfiguration',
          name: `regatta-podunavailablebudget-${h.id}`,
        })) as (KubeObject & { webhooks?: { name: string }[] }) | undefined
      )?.webhooks?.map((w) => w.name) ?? [];
    expect(await entries()).toContain(`web-pub.${ns}.pub.pods.regatta.kruise.io`);
    await c().delete({ ...PUB, namespace: ns, name: 'web-pub' });
    await expect.poll(entries, POLL).not.toContain(`web-pub.${ns}.pub.pods.regatta.kruise.io`);
  });
});

describe('blast radius: the program killed', () => {
  it('pods no budget selects are deleted and evicted at once; guarded pods fail closed', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
    await c().create(deployment(ns, 'web', 2, { app: 'web' }));
    await c().create(deployment(ns, 'free', 3, { app: 'free' }));
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 2, 1, 2]);
    await expect.poll(async () => (await readyPods(ns, 'free')).length, POLL).toBe(3);
    h.controller.killNow();
    try {
      const free = await readyPods(ns, 'free');
      const t0 = Date.now();
      expect(await evict(ns, free[0]!.metadata!.name!)).toBeUndefined();
      expect(await remove(ns, free[1]!.metadata!.name!)).toBeUndefined();
      await c().patch(
        { ...POD, namespace: ns, name: free[2]!.metadata!.name! },
        { metadata: { labels: { touched: 'yes' } } },
        { type: 'merge' },
      );
      await createPod(ns, 'free-new', { app: 'free' });
      // no webhook call, so no 10 s webhook timeout: structural, with a wide margin
      expect(Date.now() - t0).toBeLessThan(5000);
      // a pod the budget selects is created too: the CREATE entry fails open, the next pass marks it
      expect(relatedPub(await createPod(ns, 'web-new', { app: 'web' }))).toBeUndefined();
      const [guarded] = await readyPods(ns, 'web');
      const err = await evict(ns, guarded!.metadata!.name!);
      expect(err).toMatch(/vpodeviction\.kb\.io/);
    } finally {
      await h.startController('b');
    }
  });
});

describe('blast radius: the program SIGSTOPped (alive, answering nothing)', () => {
  it('pods no budget selects are untouched by it; a guarded pod’s eviction fails closed after the webhook timeout', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
    await c().create(deployment(ns, 'web', 2, { app: 'web' }));
    await c().create(deployment(ns, 'free', 2, { app: 'free' }));
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 2, 1, 2]);
    await expect.poll(async () => (await readyPods(ns, 'free')).length, POLL).toBe(2);
    const group = -h.controller.pid; // the program's process group (tsx and node)
    process.kill(group, 'SIGSTOP');
    try {
      const free = await readyPods(ns, 'free');
      const t0 = Date.now();
      expect(await evict(ns, free[0]!.metadata!.name!)).toBeUndefined();
      expect(await remove(ns, free[1]!.metadata!.name!)).toBeUndefined();
      await createPod(ns, 'free-new', { app: 'free' });
      // a stopped webhook would hold each call for its 10 s timeout: these made none
      expect(Date.now() - t0).toBeLessThan(5000);
      // a pod the budget selects is created after the CREATE entry's 2 s timeout, without the annotation
      expect(relatedPub(await createPod(ns, 'web-new', { app: 'web' }))).toBeUndefined();
      const [guarded] = await readyPods(ns, 'web');
      expect(await evict(ns, guarded!.metadata!.name!)).toMatch(/vpodeviction\.kb\.io/);
    } finally {
      process.kill(group, 'SIGCONT');
    }
  });
});

describe('a CloneSet in-place rollout under a budget with a lower maxUnavailable', () => {
  it('never has more pods unavailable than the budget allows, and completes', async () => {
    const ns = await h.namespace();
    await budget(ns, 'web-pub', {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      maxUnavailable: 1,
    });
    const cs: CloneSet = {
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'CloneSet',
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'cs' } },
        template: {
          metadata: { labels: { app: 'cs' } },
          spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] },
        },
        updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 3 },
      },
    } as CloneSet;
    await c().create(cs as KubeObject);
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 4, 3, 4]);
    const rec = await recordPods(c(), ns);
    await c().patch(
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: ns, name: 'web' },
      { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.29' }] } } } },
      { type: 'merge' },
    );
    const updated = async () =>
      (await livePods(c(), ns)).filter((p) => p.spec?.containers?.[0]?.image === 'nginx:1.29' && isReady(p))
        .length;
    await expect.poll(updated, { timeout: 120_000, interval: 1000 }).toBe(4);
    // every moment of the rollout: at most one of the four pods not ready
    const last = new Map<string, Pod>();
    let worst = 0;
    for (const s of rec.snapshots) {
      last.set(s.pod.metadata?.uid ?? '', s.pod);
      const live = [...last.values()].filter((p) => !p.metadata?.deletionTimestamp);
      worst = Math.max(worst, live.filter((p) => !isReady(p)).length);
    }
    expect(worst).toBeGreaterThan(0); // the rollout did make pods unavailable…
    expect(worst).toBeLessThanOrEqual(1); // …never more than the budget allows
    await expect.poll(() => numbers(ns, 'web-pub'), POLL).toEqual([1, 4, 3, 4]);
  });
});
