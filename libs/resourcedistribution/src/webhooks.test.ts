// The admission handlers: OpenKruise's 403 while the gate is off, 422 with field paths, the dry-run's mapping.
import { describe, expect, it } from 'vitest';
import type { ResourceDistribution } from '@regatta/api';
import type { AdmissionInput } from '@regatta/runtime';
import { resourceDistributionDefaulter, resourceDistributionValidator, resourceDistributionWebhookConfigurations } from './webhooks.js';

const rd = (targets: Record<string, unknown>): ResourceDistribution => ({
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'ResourceDistribution',
  metadata: { name: 'sample' },
  spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' } }, targets },
});
const input = (obj: ResourceDistribution, version = 'v1alpha1'): AdmissionInput<ResourceDistribution> =>
  ({ operation: 'CREATE', object: obj, oldObject: null, kind: { group: 'apps.kruise.io', version, kind: 'ResourceDistribution' }, name: 'sample', userInfo: {}, dryRun: false, uid: 'u' }) as AdmissionInput<ResourceDistribution>;

describe('resourceDistributionValidator', () => {
  it('403 "feature-gate ResourceDistributionGate is not enabled" while the gate is off', async () => {
    const v = resourceDistributionValidator({ enabled: false, dryRun: async () => undefined });
    expect(await v(input(rd({})))).toEqual({
      allowed: false,
      status: { code: 403, reason: 'Forbidden', message: 'feature-gate ResourceDistributionGate is not enabled' },
    });
  });
  it('422 with the field paths of the request version', async () => {
    const v = resourceDistributionValidator({ enabled: true, dryRun: async () => undefined });
    const res = await v(input(rd({ includedNamespaces: { list: [{ name: 'INVALID' }] }, namespaceLabelSelector: { matchLabels: { 'a b': 'c' } } })));
    expect(res.allowed).toBe(false);
    if (res.allowed) return;
    expect(res.status.code).toBe(422);
    expect(res.status.details?.causes?.map((c) => c.field)).toEqual(['spec.targets.includedNamespaces', 'spec.targets.namespaceLabelSelector']);
  });
  it('the dry-run is asked only of an otherwise valid object, and its failure is spec.resource', async () => {
    let asked = 0;
    const v = resourceDistributionValidator({
      enabled: true,
      dryRun: async () => {
        asked++;
        return { kind: 'invalid', message: 'ConfigMap "game-demo" is invalid: data[a b]: Invalid value' };
      },
    });
    const res = await v(input(rd({})));
    expect(asked).toBe(1);
    expect(res.allowed ? [] : res.status.details?.causes?.map((c) => [c.field, c.message])).toEqual([
      ['spec.resource', 'Invalid value: null: spec.resource is invalid: ConfigMap "game-demo" is invalid: data[a b]: Invalid value'],
    ]);
  });
});

describe('resourceDistributionDefaulter', () => {
  it('a v1alpha1 request gets namespaceSelector too', async () => {
    const out = (await resourceDistributionDefaulter()(input(rd({ namespaceLabelSelector: { matchLabels: { group: 'test' } } })))) as ResourceDistribution;
    expect(out.spec.targets.namespaceSelector).toEqual({ matchLabels: { group: 'test' } });
  });
});

describe('resourceDistributionWebhookConfigurations', () => {
  it('both configurations on v1alpha1 and v1beta1; scoped by the distributions\' labels when scoped', () => {
    const [m, v] = resourceDistributionWebhookConfigurations('https://h:1', 'CA', { matchLabels: { s: 'x' } }) as unknown as { metadata: { name: string }; webhooks: Record<string, unknown>[] }[];
    expect(m?.metadata.name).toBe('regatta-resourcedistribution-x');
    expect(v?.webhooks[0]).toMatchObject({ objectSelector: { matchLabels: { s: 'x' } }, rules: [{ apiVersions: ['v1alpha1', 'v1beta1'], resources: ['resourcedistributions'] }] });
    expect(resourceDistributionWebhookConfigurations('u', 'c')[0]?.metadata?.name).toBe('regatta-resourcedistribution');
  });
});
