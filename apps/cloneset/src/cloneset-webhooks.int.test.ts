// Webhook ownership (docs/adr/0013-webhook-ownership.md): the replicas of the cloneset program share one CA and
// serving certificate through a Secret; the leader keeps the webhook configurations in step (recreated when
// deleted); a dead controller never blocks deleting a CloneSet, while creates are refused (failurePolicy Fail).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '@regatta/kube';
import type { ManagedProcess } from '@regatta/local-cluster';
import { CS, seed, useCloneSetScenarios, type CloneSet } from './testing/scenario-harness.js';

const h = useCloneSetScenarios();
/** The replicas this file runs: `a` (the harness's, the first leader) and `b`. */
const replicas: { a?: ManagedProcess; b?: ManagedProcess } = {};
const ADMISSION = 'admissionregistration.k8s.io/v1';
const SCOPE_LABEL = 'regatta-test-cloneset';

interface Secret extends KubeObject {
  data?: Record<string, string>;
}
interface WebhookConfiguration extends KubeObject {
  webhooks: { clientConfig: { url?: string; caBundle?: string } }[];
}

/** The harness's id for this file: the label value of its namespaces (the lease namespace and configurations carry it). */
async function fileId(ns: string): Promise<string> {
  const obj = await h.client.get({ apiVersion: 'v1', kind: 'Namespace', name: ns });
  return obj.metadata!.labels![SCOPE_LABEL]!;
}

function demo(ns: string, name: string): CloneSet {
  const cs = seed('s1-2-cs-demo.yaml');
  cs.metadata = { name, namespace: ns };
  cs.spec['replicas'] = 1;
  return cs;
}

/** A CloneSet the validating webhook refuses (a partition that is not an int-or-percent). */
function invalid(ns: string, name: string): CloneSet {
  const cs = demo(ns, name);
  cs.spec['updateStrategy'] = { partition: '5' };
  return cs;
}

const errorOf = async (p: Promise<unknown>) =>
  (await p.then(
    () => undefined,
    (e: unknown) => e,
  )) as { status?: number; message?: string } | undefined;

describe('CloneSet webhooks', () => {
  it('two replicas share one CA (a Secret); the configurations trust it; a deleted configuration comes back', async () => {
    const ns = await h.namespace();
    const id = await fileId(ns);
    replicas.a = h.controller;
    replicas.b = await h.startController('b');

    const secrets = (
      await h.client.list<Secret>({ apiVersion: 'v1', kind: 'Secret', namespace: `cloneset-lease-${id}` })
    ).items;
    const certs = secrets.filter((s) => s.metadata?.name === 'regatta-cloneset-webhook-certs');
    expect(certs).toHaveLength(1);
    const ca = certs[0]!.data!['ca.crt'];
    expect(ca).toBeTruthy();

    const ref = {
      apiVersion: ADMISSION,
      kind: 'ValidatingWebhookConfiguration',
      name: `regatta-cloneset-${id}`,
    };
    const mref = { ...ref, kind: 'MutatingWebhookConfiguration' };
    for (const r of [ref, mref]) {
      const cfg = await h.client.get<WebhookConfiguration>(r);
      expect(cfg.webhooks.map((w) => w.clientConfig.caBundle)).toEqual([ca]);
    }
    expect((await errorOf(h.client.create(invalid(ns, 'bad-1'))))?.status).toBe(422);

    await h.client.delete(ref);
    const deletedAt = Date.now();
    await expect
      .poll(
        async () =>
          (await h.client.getOrUndefined<WebhookConfiguration>(ref))?.webhooks[0]?.clientConfig.caBundle,
        {
          timeout: 15_000,
          interval: 250,
        },
      )
      .toBe(ca);
    expect(Date.now() - deletedAt).toBeLessThan(10_000);
    expect((await errorOf(h.client.create(invalid(ns, 'bad-2'))))?.status).toBe(422);
    await h.client.create(demo(ns, 'good'));
  });

  it('the standby serves with the shared certificate once it leads; a dead controller never blocks a deletion', async () => {
    const ns = await h.namespace();
    const ref = {
      apiVersion: ADMISSION,
      kind: 'ValidatingWebhookConfiguration',
      name: `regatta-cloneset-${await fileId(ns)}`,
    };
    const held = demo(ns, 'held');
    held.metadata = { ...held.metadata, finalizers: ['example.com/hold'] };
    await h.client.create(held);

    // the leader dies: the standby takes the Lease, points the configurations at itself, and validates
    const urlOf = async () => (await h.client.get<WebhookConfiguration>(ref)).webhooks[0]!.clientConfig.url;
    const leaderUrl = await urlOf();
    await replicas.a!.stop();
    await expect.poll(urlOf, { timeout: 30_000, interval: 500 }).not.toBe(leaderUrl);
    expect((await errorOf(h.client.create(invalid(ns, 'bad-3'))))?.status).toBe(422);

    await h.client.delete({ ...CS, namespace: ns, name: 'held' });
    const deleting = await h.client.get<CloneSet>({ ...CS, namespace: ns, name: 'held' });
    expect(deleting.metadata?.deletionTimestamp).toBeTruthy();

    // no controller at all: creates are refused (failurePolicy Fail) but the finalizer can be removed
    await replicas.b!.stop();
    const refused = await errorOf(h.client.create(demo(ns, 'while-down')));
    expect(refused?.message).toMatch(/failed calling webhook/);
    await h.client.patch(
      { ...CS, namespace: ns, name: 'held' },
      { metadata: { finalizers: null } },
      { type: 'merge' },
    );
    await expect
      .poll(
        async () => (await h.client.getOrUndefined({ ...CS, namespace: ns, name: 'held' })) === undefined,
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
  });
});
