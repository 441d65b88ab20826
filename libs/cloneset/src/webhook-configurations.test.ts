import { describe, expect, it } from 'vitest';
import { CLONESET_WEBHOOK_MATCH_CONDITIONS, cloneSetWebhookConfigurations } from './webhooks.js';

describe('CloneSet webhook configurations', () => {
  const { mutating, validating } = cloneSetWebhookConfigurations('https://h:1', 'CA PEM', {
    matchLabels: { team: 'a' },
  });

  it('point at the URL with the CA, scoped and named after the namespace scope, failing closed', () => {
    for (const cfg of [mutating, validating]) {
      expect(cfg.metadata?.name).toBe('regatta-cloneset-a');
      const [hook] = cfg.webhooks as Record<string, unknown>[];
      expect(hook).toMatchObject({
        clientConfig: { caBundle: Buffer.from('CA PEM').toString('base64') },
        namespaceSelector: { matchLabels: { team: 'a' } },
        failurePolicy: 'Fail',
      });
      expect((hook!['clientConfig'] as { url: string }).url).toMatch(/^https:\/\/h:1\/(mutate|validate)-/);
    }
  });

  it('skip objects being deleted and updates that change neither spec, labels nor annotations', () => {
    for (const cfg of [mutating, validating]) {
      const [hook] = cfg.webhooks as { matchConditions?: unknown }[];
      expect(hook!.matchConditions).toEqual(CLONESET_WEBHOOK_MATCH_CONDITIONS.map((c) => ({ ...c })));
    }
    const [deleting, changed] = CLONESET_WEBHOOK_MATCH_CONDITIONS;
    expect(deleting.expression).toBe('!has(object.metadata.deletionTimestamp)');
    expect(changed.expression).toContain("request.operation != 'UPDATE'");
    for (const part of ['spec', 'labels', 'annotations']) expect(changed.expression).toContain(part);
  });
});
