// A ResourceDistribution the webhook would refuse, stored with the webhooks off (docs/resourcedistribution.md
// "Admission"; issue 18's R2, second half): the reconciler writes no copy and no status for it and says why with an
// InvalidSpec Warning naming the field; a valid one next to it is distributed.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CoreEvent, KubeObject } from '@regatta/kube';
import { useScenarioLayer } from '@regatta/testing';

const layer = useScenarioLayer({
  lease: 'rdinv',
  short: 'rdinv',
  env: (leaseNs) => ({ REGATTA_RESOURCEDISTRIBUTION_NAMESPACE: leaseNs! }),
  // the watcher mirrors Secrets only with a key for their keyed hash (docs/adr/0009)
  watcherEnv: { REGATTA_SECRET_HASH_KEY: randomBytes(32).toString('base64url') },
  controller: { app: 'resourcedistribution', webhooks: false },
});
const RD = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ResourceDistribution' } as const;
const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const POLL = { timeout: 60_000, interval: 500 };

const distribution = (name: string, targets: Record<string, unknown>) => ({
  ...RD,
  metadata: { name },
  spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }, targets },
});

describe('ResourceDistribution that fails validation, stored without the webhooks', () => {
  it('is refused with an InvalidSpec event naming the field; no copy, no status', async () => {
    const c = layer.client;
    const ns = `rdinv-${layer.id}`;
    const other = `rdinv-${layer.id}-x`;
    for (const name of [ns, other])
      await c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const bad = `bad-${layer.id}`;
    const good = `good-${layer.id}`;
    try {
      // `other` both included and excluded: the webhook refuses; acted on, `ns` would get a copy
      await c.create(
        distribution(bad, {
          includedNamespaces: { list: [{ name: ns }, { name: other }] },
          excludedNamespaces: { list: [{ name: other }] },
        }) as KubeObject,
      );
      await c.create(distribution(good, { includedNamespaces: { list: [{ name: ns }] } }) as KubeObject);

      await expect
        .poll(async () => !!(await c.getOrUndefined({ ...CM, namespace: ns, name: good })), POLL)
        .toBe(true);
      const refusals = async () =>
        (await c.list<CoreEvent>({ apiVersion: 'v1', kind: 'Event' })).items
          .filter((e) => e.involvedObject.name === bad && e.reason === 'InvalidSpec')
          .map((e) => `${e.type}: ${e.message}`);
      await expect
        .poll(refusals, POLL)
        .toContainEqual(
          expect.stringMatching(
            /^Warning: not acting on this ResourceDistribution until it is fixed: spec\.targets/,
          ),
        );
      expect(await c.getOrUndefined({ ...CM, namespace: ns, name: bad })).toBeUndefined();
      expect((await c.get<KubeObject & { status?: unknown }>({ ...RD, name: bad })).status ?? {}).toEqual({});

      // fixed: distributed
      await c.patch(
        { ...RD, name: bad },
        { spec: { targets: { excludedNamespaces: null } } },
        { type: 'merge' },
      );
      await expect
        .poll(async () => !!(await c.getOrUndefined({ ...CM, namespace: ns, name: bad })), POLL)
        .toBe(true);
    } finally {
      for (const name of [bad, good]) await c.delete({ ...RD, name }).catch(() => undefined);
      for (const name of [ns, other])
        await c.delete({ apiVersion: 'v1', kind: 'Namespace', name }).catch(() => undefined);
    }
  }, 200_000);
});
