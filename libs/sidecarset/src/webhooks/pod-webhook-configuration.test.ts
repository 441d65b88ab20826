import { describe, expect, it } from 'vitest';
import type { AnySidecarSet } from '../injection/types.js';
import {
  ALL_PODS_ENTRY,
  MAX_POD_WEBHOOK_ENTRIES,
  POD_WEBHOOK_MODE_ANNOTATION,
  podWebhookConfiguration,
  podWebhookEntryInStep,
} from './pod-webhook-configuration.js';

const s = (name: string, spec: Partial<AnySidecarSet['spec']>): AnySidecarSet => ({
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec },
});

describe('podWebhookConfiguration (docs/adr/0026-sidecarset-blast-radius.md)', () => {
  const sets = [
    s('b-log', {
      selector: { matchLabels: { app: 'nginx' } },
      namespaceSelector: { matchLabels: { team: 'a' } },
    }),
    s('a-mesh', {
      selector: { matchExpressions: [{ key: 'mesh', operator: 'Exists' }] },
      namespace: 'prod',
    } as Partial<AnySidecarSet['spec']>),
    s('paused', { selector: { matchLabels: { app: 'x' } }, injectionStrategy: { paused: true } }),
    s('empty', { selector: {} }),
  ];

  it('a SidecarSet admitted but not cached gets an entry of its own, beside the cached one of its name, never twice', () => {
    const admitted = s('b-log', { selector: { matchLabels: { app: 'web' } } });
    admitted.metadata = { ...admitted.metadata, uid: '0123456789ab' };
    const cfg = podWebhookConfiguration(sets, 'https://127.0.0.1:9443', 'CA', undefined, [
      admitted,
      admitted,
    ]);
    expect(cfg.webhooks.map((w) => w['name'])).toEqual([
      'a-mesh.sidecarset.pods.regatta.kruise.io',
      'b-log.sidecarset.pods.regatta.kruise.io',
      'b-log.01234567.admitted.sidecarset.pods.regatta.kruise.io',
      'launch-priority.pods.regatta.kruise.io',
    ]);
    expect(cfg.webhooks[1]).toMatchObject({ objectSelector: { matchLabels: { app: 'nginx' } } });
    expect(cfg.webhooks[2]).toMatchObject({
      objectSelector: { matchLabels: { app: 'web' } },
      failurePolicy: 'Fail',
    });
  });

  it('one fail-closed entry per injecting SidecarSet (by name), selectors as objectSelector/namespaceSelector, then launch priority', () => {
    const cfg = podWebhookConfiguration(sets, 'https://127.0.0.1:9443', 'CA');
    expect(cfg.metadata?.name).toBe('regatta-sidecarset-pods');
    expect(cfg.webhooks.map((w) => w['name'])).toEqual([
      'a-mesh.sidecarset.pods.regatta.kruise.io',
      'b-log.sidecarset.pods.regatta.kruise.io',
      'launch-priority.pods.regatta.kruise.io',
    ]);
    expect(cfg.webhooks[0]).toMatchObject({
      objectSelector: { matchExpressions: [{ key: 'mesh', operator: 'Exists' }] },
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'prod' } },
      failurePolicy: 'Fail',
      rules: [{ operations: ['CREATE'], resources: ['pods'] }],
      clientConfig: {
        url: 'https://127.0.0.1:9443/mutate-pod',
        caBundle: Buffer.from('CA').toString('base64'),
      },
    });
    expect(cfg.webhooks[1]).toMatchObject({ namespaceSelector: { matchLabels: { team: 'a' } } });
    expect(cfg.webhooks[2]!['objectSelector']).toBeUndefined();
    expect(cfg.webhooks[2]!['matchConditions']).toHaveLength(1);
  });

  it('no SidecarSet: only the launch-priority entry; a scope is ANDed into every namespaceSelector', () => {
    expect(podWebhookConfiguration([], 'u', 'c').webhooks).toHaveLength(1);
    const scoped = podWebhookConfiguration(sets, 'u', 'c', { matchLabels: { 'regatta.test/run': 'r1' } });
    expect(scoped.metadata?.name).toBe('regatta-sidecarset-pods-r1');
    expect(scoped.webhooks[1]!['namespaceSelector']).toEqual({
      matchLabels: { team: 'a' },
      matchExpressions: [{ key: 'regatta.test/run', operator: 'In', values: ['r1'] }],
    });
    expect(scoped.webhooks[2]!['namespaceSelector']).toEqual({ matchLabels: { 'regatta.test/run': 'r1' } });
  });

  describe("podWebhookEntryInStep: the configuration sends the SidecarSet's pods to the webhook", () => {
    const set = s('log', {
      selector: { matchLabels: { app: 'nginx' } },
      namespaceSelector: { matchLabels: { team: 'a' } },
    });
    // as the API server returns it: the entry with server defaults added
    const stored = (sets: AnySidecarSet[], scope?: { matchLabels: Record<string, string> }) => {
      const cfg = podWebhookConfiguration(sets, 'u', 'c', scope);
      return {
        ...cfg,
        webhooks: cfg.webhooks.map((w) => ({ namespaceSelector: {}, matchPolicy: 'Equivalent', ...w })),
      };
    };
    const scope = { matchLabels: { 'regatta.test/run': 'r1' } };
    it.each([
      ['applied', stored([set]), set, undefined, true],
      ['no configuration yet', undefined, set, undefined, false],
      ['not applied yet', stored([]), set, undefined, false],
      [
        'the selector changed since',
        stored([set]),
        s('log', {
          selector: { matchLabels: { app: 'other' } },
          namespaceSelector: { matchLabels: { team: 'a' } },
        }),
        undefined,
        false,
      ],
      [
        'the namespace selector was dropped since',
        stored([set]),
        s('log', { selector: { matchLabels: { app: 'nginx' } } }),
        undefined,
        false,
      ],
      [
        'without a namespace selector (stored as {})',
        stored([sets[3]!, s('x', { selector: { matchLabels: { a: 'b' } } })]),
        s('x', { selector: { matchLabels: { a: 'b' } } }),
        undefined,
        true,
      ],
      ['scoped, applied', stored([set], scope), set, scope, true],
      ['injection paused: nothing to wait for', undefined, sets[2]!, undefined, true],
    ])('%s', (_what, observed, sidecarSet, sc, want) => {
      expect(podWebhookEntryInStep(observed, sidecarSet, sc)).toBe(want);
    });
  });

  describe('past its bounds, one entry for every pod (docs/adr/0026, amendment; docs/reliability.md finding 19)', () => {
    const many = (n: number, value = 'v') =>
      Array.from({ length: n }, (_, i) =>
        s(`set-${i}`, { selector: { matchLabels: { app: `${value}${i}` } } }),
      );
    const mode = (cfg: ReturnType<typeof podWebhookConfiguration>) =>
      cfg.metadata?.annotations?.[POD_WEBHOOK_MODE_ANNOTATION];

    it(`${MAX_POD_WEBHOOK_ENTRIES} SidecarSets: an entry each (and launch priority)`, () => {
      const cfg = podWebhookConfiguration(many(MAX_POD_WEBHOOK_ENTRIES), 'u', 'c');
      expect(cfg.webhooks).toHaveLength(MAX_POD_WEBHOOK_ENTRIES + 1);
      expect(mode(cfg)).toBe('per-sidecarset');
    });

    it.each([
      ['one SidecarSet more', many(MAX_POD_WEBHOOK_ENTRIES + 1)],
      ['admitted ones counted too', many(MAX_POD_WEBHOOK_ENTRIES)],
      [
        'few SidecarSets whose entries pass 512 KiB',
        many(5, 'x'.repeat(60)).map((x) => ({
          ...x,
          spec: {
            ...x.spec,
            selector: {
              matchExpressions: [
                {
                  key: 'k',
                  operator: 'In',
                  values: Array.from({ length: 2000 }, (_, i) => `value-${i}-${'y'.repeat(40)}`),
                },
              ],
            },
          },
        })),
      ],
    ])(
      '%s: one fail-closed entry for all pods but kube-system and control-plane namespaces',
      (what, sets) => {
        const admitted = what.startsWith('admitted')
          ? [s('late', { selector: { matchLabels: { app: 'late' } } })]
          : [];
        const cfg = podWebhookConfiguration(sets, 'https://127.0.0.1:9443', 'CA', undefined, admitted);
        expect(mode(cfg)).toBe('all-pods');
        expect(cfg.webhooks).toEqual([
          expect.objectContaining({
            name: ALL_PODS_ENTRY,
            failurePolicy: 'Fail',
            clientConfig: {
              url: 'https://127.0.0.1:9443/mutate-pod',
              caBundle: Buffer.from('CA').toString('base64'),
            },
            namespaceSelector: {
              matchExpressions: [
                { key: 'control-plane', operator: 'DoesNotExist' },
                { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
              ],
            },
          }),
        ]);
        expect(cfg.webhooks[0]!['objectSelector']).toBeUndefined();
      },
    );

    it("leaves out the program's own namespace too, so Regatta's pods never wait for it", () => {
      const cfg = podWebhookConfiguration(many(MAX_POD_WEBHOOK_ENTRIES + 1), 'u', 'c', undefined, [], 'regatta-system');
      expect(cfg.webhooks[0]!['namespaceSelector']).toEqual({
        matchExpressions: [
          { key: 'control-plane', operator: 'DoesNotExist' },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system', 'regatta-system'] },
        ],
      });
    });

    it('scoped: the scope is ANDed into the one entry', () => {
      const cfg = podWebhookConfiguration(many(MAX_POD_WEBHOOK_ENTRIES + 1), 'u', 'c', {
        matchLabels: { 'regatta.test/run': 'r1' },
      });
      expect(cfg.webhooks[0]!['namespaceSelector']).toEqual({
        matchExpressions: [
          { key: 'regatta.test/run', operator: 'In', values: ['r1'] },
          { key: 'control-plane', operator: 'DoesNotExist' },
          { key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['kube-system'] },
        ],
      });
    });

    it('every SidecarSet is in step once the one entry is applied', () => {
      const sets = many(MAX_POD_WEBHOOK_ENTRIES + 1);
      const observed = podWebhookConfiguration(sets, 'u', 'c');
      expect(sets.every((x) => podWebhookEntryInStep(observed, x))).toBe(true);
    });
  });
});
