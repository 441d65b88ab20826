import { describe, expect, it } from 'vitest';
import {
  NOT_BEING_DELETED,
  kindWebhookConfigurations,
  webhookConfigurationName,
  type KindWebhooks,
} from './kind-webhook-configurations.js';

const kind = (resource: string, scope: KindWebhooks['scope'], extra: Partial<KindWebhooks> = {}): KindWebhooks => ({
  resource,
  scope,
  versions: ['v1alpha1', 'v1beta1'],
  mutating: { name: `m${resource}.kb.io`, path: `/mutate-${resource}` },
  validating: { name: `v${resource}.kb.io`, path: `/validate-${resource}` },
  matchConditions: [NOT_BEING_DELETED],
  ...extra,
});
type Hook = Record<string, unknown> & { name: string; clientConfig: { url: string; caBundle: string } };
const scope = { matchLabels: { team: 'a' } };

describe('webhookConfigurationName', () => {
  it.each([
    ['unscoped', undefined, 'regatta-demo'],
    ['scoped: the label values', { matchLabels: { a: 'x', b: 'y' } }, 'regatta-demo-x-y'],
    ['scoped: empty values left out', { matchLabels: { a: 'x', b: '' } }, 'regatta-demo-x'],
    ['scoped without values', { matchLabels: { a: '' } }, 'regatta-demo-scoped'],
  ])('%s', (_, s, name) => {
    expect(webhookConfigurationName('demo', s)).toBe(name);
  });
});

describe('kindWebhookConfigurations', () => {
  it('one mutating and one validating webhook per kind, fail closed, at the kind paths', () => {
    const { mutating, validating } = kindWebhookConfigurations(
      'demo',
      [kind('demos', 'Namespaced'), kind('others', 'Cluster')],
      'https://h:1',
      'PEM',
    );
    expect([mutating.kind, validating.kind]).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
    expect([mutating.metadata?.name, validating.metadata?.name]).toEqual(['regatta-demo', 'regatta-demo']);
    const m = mutating.webhooks as Hook[];
    const v = validating.webhooks as Hook[];
    expect(m.map((h) => [h.name, h.clientConfig.url, h['reinvocationPolicy']])).toEqual([
      ['mdemos.kb.io', 'https://h:1/mutate-demos', 'Never'],
      ['mothers.kb.io', 'https://h:1/mutate-others', 'Never'],
    ]);
    expect(v.map((h) => [h.name, h.clientConfig.url, h['reinvocationPolicy']])).toEqual([
      ['vdemos.kb.io', 'https://h:1/validate-demos', undefined],
      ['vothers.kb.io', 'https://h:1/validate-others', undefined],
    ]);
    for (const hook of [...m, ...v]) {
      expect(hook.clientConfig.caBundle).toBe(Buffer.from('PEM').toString('base64'));
      expect(hook).toMatchObject({
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: 10,
        matchConditions: [{ ...NOT_BEING_DELETED }],
      });
      expect(hook['namespaceSelector']).toBeUndefined();
      expect(hook['objectSelector']).toBeUndefined();
      expect(hook['matchPolicy']).toBeUndefined();
    }
    expect(m[1]!['rules']).toEqual([
      {
        apiGroups: ['apps.kruise.io'],
        apiVersions: ['v1alpha1', 'v1beta1'],
        operations: ['CREATE', 'UPDATE'],
        resources: ['others'],
        scope: 'Cluster',
      },
    ]);
  });

  it.each([
    ['Namespaced', 'a namespace scope selects namespaces', { namespaceSelector: scope }, 'objectSelector'],
    ['Cluster', 'a cluster-scoped kind is selected by its own labels', { objectSelector: scope }, 'namespaceSelector'],
  ] as const)('%s: %s', (s, _, selector, absent) => {
    const { mutating, validating } = kindWebhookConfigurations('demo', [kind('demos', s)], 'u', 'c', scope);
    expect(validating.metadata?.name).toBe('regatta-demo-a');
    for (const hook of [...mutating.webhooks, ...validating.webhooks] as Hook[]) {
      expect(hook).toMatchObject(selector);
      expect(hook[absent]).toBeUndefined();
      expect((hook['rules'] as { scope: string }[])[0]!.scope).toBe(s);
    }
  });

  it('matchPolicy and the match conditions are the kind’s own (copied)', () => {
    const conditions = [NOT_BEING_DELETED, { name: 'other', expression: 'true' }];
    const { validating } = kindWebhookConfigurations(
      'demo',
      [kind('demos', 'Cluster', { matchPolicy: 'Exact', matchConditions: conditions })],
      'u',
      'c',
    );
    const [hook] = validating.webhooks as Hook[];
    expect(hook!['matchPolicy']).toBe('Exact');
    expect(hook!['matchConditions']).toEqual(conditions);
    expect((hook!['matchConditions'] as unknown[])[0]).not.toBe(NOT_BEING_DELETED);
  });
});
