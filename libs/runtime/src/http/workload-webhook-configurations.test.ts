import { describe, expect, it } from 'vitest';
import {
  WORKLOAD_WEBHOOK_MATCH_CONDITIONS,
  workloadWebhookConfigurations,
} from './workload-webhook-configurations.js';

const kind = {
  controller: 'demo',
  resource: 'demos',
  versions: ['v1alpha1', 'v1beta1'],
  mutating: { name: 'mdemo.kb.io', path: '/mutate-demo' },
  validating: { name: 'vdemo.kb.io', path: '/validate-demo' },
};
type Hook = Record<string, unknown> & { clientConfig: { url: string; caBundle: string } };

describe('workloadWebhookConfigurations', () => {
  it('one fail-closed mutating and one validating webhook on the kind, skipped by CEL when there is nothing to decide', () => {
    const { mutating, validating } = workloadWebhookConfigurations(kind, 'https://h:1', 'PEM');
    const [m] = mutating.webhooks as Hook[];
    const [v] = validating.webhooks as Hook[];
    expect(mutating.metadata?.name).toBe('regatta-demo');
    expect(m!.clientConfig).toEqual({
      url: 'https://h:1/mutate-demo',
      caBundle: Buffer.from('PEM').toString('base64'),
    });
    expect(v!.clientConfig.url).toBe('https://h:1/validate-demo');
    for (const hook of [m!, v!]) {
      expect(hook['failurePolicy']).toBe('Fail');
      expect(hook['rules']).toEqual([
        {
          apiGroups: ['apps.kruise.io'],
          apiVersions: ['v1alpha1', 'v1beta1'],
          operations: ['CREATE', 'UPDATE'],
          resources: ['demos'],
          scope: 'Namespaced',
        },
      ]);
      expect(hook['matchConditions']).toEqual(WORKLOAD_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })));
      expect(hook['matchPolicy']).toBeUndefined();
      expect(hook['namespaceSelector']).toBeUndefined();
    }
  });

  it('a namespace scope selects the namespaces and names the configurations after its labels; matchPolicy when asked', () => {
    const scoped = workloadWebhookConfigurations({ ...kind, matchPolicy: 'Exact' }, 'u', 'c', {
      matchLabels: { team: 'a' },
    });
    const [hook] = scoped.validating.webhooks as Hook[];
    expect(scoped.validating.metadata?.name).toBe('regatta-demo-a');
    expect(hook!['namespaceSelector']).toEqual({ matchLabels: { team: 'a' } });
    expect(hook!['matchPolicy']).toBe('Exact');
  });
});
