// The same validation table through a kind's webhook validator and through its ValidatingAdmissionPolicy on the real
// API server with no Regatta program running (docs/adr/0088-admission-policies.md): every case the policy covers
// gets the same verdict from both, and the API server's refusal names the field the webhook names. A case the policy
// leaves to the webhook (look-ups, pod template contents) says so and why; the test checks the policy admits it,
// so a rule moved into CEL later shows up here.
//
// The policy is installed under a name of the file's own and bound to the file's namespace only, so scenario files
// running beside it never meet it. Objects are sent with dryRun: nothing is stored but the UPDATE cases' old objects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeClient, KubeObject } from '@regatta/kube';
import { waitFor } from '@regatta/local-cluster';
import type { PolicyCase } from '@regatta/workload';
import { scenarioCluster } from './context.js';
import { randomId } from './namespaces.js';

/** A row of a kind's table (libs/workload admission-policy-cases.ts). */
export type PolicyParityCase = PolicyCase;

export interface PolicyParityKind {
  /**
   * The policy and binding with `suffix` added to their names, the binding limited to `selector`: the test's
   * namespace (namespaceSelector), or for a cluster-scoped kind the test's objects (objectSelector).
   */
  policies: (suffix: string, selector: Record<string, unknown>) => KubeObject[];
  /** A cluster-scoped kind (SidecarSet): objects carry the test's label instead of a namespace. */
  clusterScoped?: boolean;
  /** The webhook's verdict: its messages, none when it admits (defaulting included, as admission runs it). */
  webhook: (object: KubeObject, old: KubeObject | undefined) => string[];
  /** A case the policy refuses (and the CRD's schema admits): the test starts once the API server enforces it. */
  probe: KubeObject;
  cases: readonly PolicyParityCase[];
}

/** The API server's refusal of a dry-run CREATE (or UPDATE from `old`), undefined when admitted. */
async function refusal(client: KubeClient, place: (o: KubeObject) => KubeObject, c: { object: KubeObject; old?: KubeObject }) {
  const withNs = place;
  const ns = place({}).metadata?.namespace;
  try {
    if (c.old) {
      const stored = await client.get({
        apiVersion: c.old.apiVersion!,
        kind: c.old.kind!,
        ...(ns ? { namespace: ns } : {}),
        name: c.old.metadata!.name!,
      });
      await client.replace(
        { ...withNs(c.object), metadata: { ...withNs(c.object).metadata, resourceVersion: stored.metadata?.resourceVersion } },
        { dryRun: true },
      );
    } else {
      await client.create(withNs(c.object), { dryRun: true });
    }
    return undefined;
  } catch (err) {
    return String((err as Error).message);
  }
}

const fieldOf = (message: string): string => message.slice(0, message.indexOf(': '));

export function describePolicyParity(title: string, kind: PolicyParityKind): void {
  const id = randomId();
  const label = 'regatta-test-policy-parity';
  const ns = `vap-${id}`;
  const policies = kind.policies(`-${id}`, { matchLabels: { [label]: id } });
  // in the test's namespace, or (cluster-scoped) labelled and named for the test
  const place = (o: KubeObject): KubeObject =>
    kind.clusterScoped
      ? { ...o, metadata: { ...o.metadata, name: `${o.metadata?.name ?? ''}-${id}`.slice(-253), labels: { ...o.metadata?.labels, [label]: id } } }
      : { ...o, metadata: { ...o.metadata, namespace: ns } };
  let client: KubeClient;

  beforeAll(async () => {
    client = scenarioCluster().client;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [label]: id } } } as KubeObject);
    // the old objects first: one the policy would refuse now (a ratchet case) was stored before it
    for (const c of kind.cases) {
      if (!c.old) continue;
      await client.create(place(c.old)).catch((err: unknown) => {
        if (!/already exists/.test(String(err))) throw err;
      });
    }
    for (const p of policies) await client.create(p);
    await waitFor('the policy to be enforced', async () => (await refusal(client, place, { object: kind.probe })) !== undefined, {
      timeoutMs: 60_000,
      intervalMs: 250,
    });
  }, 120_000);

  afterAll(async () => {
    for (const p of policies)
      await client?.delete({ apiVersion: p.apiVersion!, kind: p.kind!, name: p.metadata!.name! }).catch(() => undefined);
    if (kind.clusterScoped)
      for (const c of kind.cases.filter((x) => x.old))
        await client
          ?.delete({ apiVersion: c.old!.apiVersion!, kind: c.old!.kind!, name: place(c.old!).metadata!.name! })
          .catch(() => undefined);
    await client?.delete({ apiVersion: 'v1', kind: 'Namespace', name: ns }).catch(() => undefined);
  });

  describe(title, () => {
    it('the API server type-checks the policy without warnings', async () => {
      for (const p of policies.filter((o) => o.kind === 'ValidatingAdmissionPolicy')) {
        const got = await client.get<KubeObject & { status?: { typeChecking?: { expressionWarnings?: unknown[] } } }>({
          apiVersion: p.apiVersion!,
          kind: p.kind!,
          name: p.metadata!.name!,
        });
        expect(got.status?.typeChecking?.expressionWarnings ?? []).toEqual([]);
      }
    });

    it.each(kind.cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const webhook = kind.webhook(place(c.object), c.old && place(c.old));
      const policy = await refusal(client, place, c);
      if (c.webhookOnly) {
        expect(webhook, 'the webhook refuses it').not.toEqual([]);
        expect(policy, `the policy leaves it to the webhook (${c.webhookOnly})`).toBeUndefined();
        return;
      }
      expect(policy !== undefined, `policy: ${policy ?? 'admitted'}; webhook: ${webhook.join('; ') || 'admitted'}`).toBe(
        webhook.length > 0,
      );
      if (policy !== undefined) {
        // the policy refuses it, or the CRD's schema already did (`… is invalid: spec.replicas: …`)
        expect(policy).toMatch(/ValidatingAdmissionPolicy|is invalid: /);
        const fields = webhook.map(fieldOf);
        expect(
          fields.some((f) => policy.includes(`${f}:`)),
          `the refusal names one of the webhook's fields ${fields.join(', ')}: ${policy}`,
        ).toBe(true);
      }
    });
  });
}
