// Deletion protection on the real control plane (docs/deletion-protection.md): the ValidatingAdmissionPolicies of
// libs/deletionprotection installed as the chart installs them, the deletionprotection program (gate
// ResourcesDeletionProtection on) with its watcher. The seed's Namespace sample (`kubectl label ns X
// policy.kruise.io/delete-protection=Cascading`: refused while it holds a running pod, allowed once empty); Cascading
// on a workload's replicas (a policy); and, with the program killed -9, what still holds (Always on a CloneSet), what
// fails closed (a Cascading Namespace) and what is untouched (unlabelled Namespaces and CloneSets, deleted at once).
import { afterAll, describe, expect, it } from 'vitest';
import { deletionProtectionPolicies } from '@regatta/deletionprotection';
import type { KubeObject } from '@regatta/kube';
import { applyObjects, waitFor } from '@regatta/local-cluster';
import { useScenarioLayer } from '@regatta/testing';

const KEY = 'policy.kruise.io/delete-protection';
const NS = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', name });

const layer = useScenarioLayer({
  short: 'dp',
  lease: 'dp',
  scopeLabel: 'regatta-test-dp',
  timeoutMs: 180_000,
  controller: {
    app: 'deletionprotection',
    webhooks: true,
    env: { REGATTA_FEATURE_GATES: 'ResourcesDeletionProtection=true' },
  },
  async start(l) {
    await applyObjects(l.kubeconfig, deletionProtectionPolicies() as Parameters<typeof applyObjects>[1]);
  },
});

afterAll(async () => {
  for (const p of deletionProtectionPolicies())
    await layer.client
      .delete({ apiVersion: p.apiVersion!, kind: p.kind!, name: p.metadata!.name! })
      .catch(() => undefined);
});

/** The API server's refusal of a DELETE, or undefined when it was admitted (dry run: nothing is deleted). */
async function refusal(
  ref: { apiVersion: string; kind: string; name: string; namespace?: string },
  dryRun = true,
) {
  try {
    await layer.client.delete(ref, { dryRun });
    return undefined;
  } catch (err) {
    return String((err as Error).message);
  }
}

async function runningPod(namespace: string, name: string): Promise<void> {
  await layer.client.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { nodeName: layer.nodes[0], containers: [{ name: 'app', image: 'nginx:alpine' }] },
  } as KubeObject);
  await waitFor(
    `pod ${namespace}/${name} Running`,
    async () => {
      const p = await layer.client.get<KubeObject & { status?: { phase?: string } }>({
        apiVersion: 'v1',
        kind: 'Pod',
        namespace,
        name,
      });
      return p.status?.phase === 'Running';
    },
    { timeoutMs: 60_000 },
  );
}

const cloneSet = (namespace: string, name: string, labels: Record<string, string> = {}): KubeObject =>
  ({
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name, namespace, labels },
    spec: {
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: 'nginx:alpine' }] },
      },
    },
  }) as KubeObject;

const label = (
  ref: { apiVersion: string; kind: string; name: string; namespace?: string },
  value: string | null,
) => layer.client.patch(ref, { metadata: { labels: { [KEY]: value } } }, { type: 'merge' });

describe('deletion protection', () => {
  it('the seed sample: a Cascading Namespace is refused while it holds a running pod, deleted once empty', async () => {
    const ns = await layer.namespace();
    await runningPod(ns, 'web');
    await label(NS(ns), 'Cascading');
    let message: string | undefined;
    await waitFor(
      'the Namespace deletion refused',
      async () => (message = await refusal(NS(ns))) !== undefined,
      {
        timeoutMs: 30_000,
      },
    );
    expect(message).toMatch(
      `forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and active pods 1>0`,
    );
    expect(message).toMatch(/Regatta/);

    await layer.client.delete(
      { apiVersion: 'v1', kind: 'Pod', namespace: ns, name: 'web' },
      { gracePeriodSeconds: 0 },
    );
    await waitFor('the empty Namespace admitted', async () => (await refusal(NS(ns))) === undefined, {
      timeoutMs: 30_000,
    });
    expect(await refusal(NS(ns), false)).toBeUndefined();
  });

  it('Cascading on a workload counts spec.replicas (a policy, no program involved)', async () => {
    const ns = await layer.namespace();
    const ref = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: ns, name: 'scaled' };
    const scaled = cloneSet(ns, 'scaled', { [KEY]: 'Cascading' }) as KubeObject & {
      spec: { replicas: number };
    };
    scaled.spec.replicas = 2;
    await layer.client.create(scaled);
    let message: string | undefined;
    await waitFor('the policies in force', async () => (message = await refusal(ref)) !== undefined, {
      timeoutMs: 30_000,
    });
    expect(message).toMatch(`forbidden by ResourcesProtectionDeletion for ${KEY}=Cascading and replicas 2>0`);
    expect(message).toMatch(/regatta-deletion-protection-replicas/);
    await layer.client.patch(ref, { spec: { replicas: 0 } }, { type: 'merge' });
    expect(await refusal(ref, false)).toBeUndefined();
  });

  it('with the program SIGSTOPped: unlabelled objects are deleted at once, a Cascading Namespace waits out the webhook timeout and is refused', async () => {
    const guarded = await layer.namespace();
    await label(NS(guarded), 'Cascading');
    await waitFor(
      'the empty Cascading Namespace admitted',
      async () => (await refusal(NS(guarded))) === undefined,
      {
        timeoutMs: 30_000,
      },
    );
    const ns = await layer.namespace();
    await layer.client.create(cloneSet(ns, 'plain'));
    const plain = await layer.namespace();
    await runningPod(plain, 'web');

    process.kill(-layer.controller.pid, 'SIGSTOP');
    try {
      const t0 = Date.now();
      expect(
        await refusal(
          { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: ns, name: 'plain' },
          false,
        ),
      ).toBeUndefined();
      expect(
        await refusal({ apiVersion: 'v1', kind: 'Pod', namespace: plain, name: 'web' }, false),
      ).toBeUndefined();
      expect(await refusal(NS(plain), false)).toBeUndefined();
      expect(Date.now() - t0).toBeLessThan(2_000);

      const t1 = Date.now();
      const hung = await refusal(NS(guarded));
      expect(hung).toMatch(/failed calling webhook "vnamespace\.deletionprotection\.regatta\.dev"/);
      // the webhook's timeoutSeconds (10 s), not more
      expect(Date.now() - t1).toBeGreaterThanOrEqual(9_000);
      expect(Date.now() - t1).toBeLessThan(15_000);
    } finally {
      process.kill(-layer.controller.pid, 'SIGCONT');
    }
    await waitFor('the program answering again', async () => (await refusal(NS(guarded))) === undefined, {
      timeoutMs: 30_000,
    });
  }, 90_000);

  it('with the program killed: Always holds, Cascading fails closed naming Regatta, unlabelled objects are deleted at once', async () => {
    const ns = await layer.namespace();
    const kept = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: ns, name: 'kept' };
    await layer.client.create(cloneSet(ns, 'kept', { [KEY]: 'Always' }));
    await layer.client.create(cloneSet(ns, 'plain'));
    const guarded = await layer.namespace();
    await label(NS(guarded), 'Cascading');
    const plain = await layer.namespace();
    await runningPod(plain, 'web');
    await waitFor('the policies in force', async () => (await refusal(kept)) !== undefined, {
      timeoutMs: 30_000,
    });

    layer.controller.killNow();
    await waitFor('the program gone', async () => !layer.controller.running, {
      timeoutMs: 10_000,
    });

    const always = await refusal(kept, false);
    expect(always).toMatch(`forbidden by ResourcesProtectionDeletion for ${KEY}=Always`);
    expect(always).toMatch(/Regatta/);

    const closed = await refusal(NS(guarded), false);
    // the webhook's name says whose it is: the API server could not reach the program
    expect(closed).toMatch(/failed calling webhook "vnamespace\.deletionprotection\.regatta\.dev"/);

    const t0 = Date.now();
    expect(
      await refusal(
        { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: ns, name: 'plain' },
        false,
      ),
    ).toBeUndefined();
    expect(await refusal(NS(plain), false)).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(2_000);

    // the Namespace left behind: unlabelled, then deleted
    await label(NS(guarded), null);
    expect(await refusal(NS(guarded), false)).toBeUndefined();
  });
});
