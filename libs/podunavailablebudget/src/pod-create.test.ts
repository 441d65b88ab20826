// The budget's pod CREATE webhook (docs/adr/0096-pod-unavailable-budget-at-pod-create.md): one entry per budget,
// reaching only the pods it selects and failing open; the handler names the budget in `kruise.io/related-pub`.
import type { Pod, PodUnavailableBudget } from '@regatta/api';
import type { AdmissionInput } from '@regatta/runtime';
import { describe, expect, it } from 'vitest';
import {
  ALL_BUDGET_NAMESPACES_ENTRY,
  MAX_POD_CREATE_ENTRIES,
  MUTATE_POD_PATH,
  podCreateDefaulter,
  podCreateEntryName,
  podCreateWebhookConfiguration,
  targetControllerExpression,
} from './pod-create.js';
import type { WorkloadView } from './selection.js';

const budget = (
  name: string,
  spec: PodUnavailableBudget['spec'],
  extra: Partial<PodUnavailableBudget['metadata']> = {},
) =>
  ({
    apiVersion: 'policy.kruise.io/v1alpha1',
    kind: 'PodUnavailableBudget',
    metadata: { name, namespace: 'ns', ...extra },
    spec,
  }) as PodUnavailableBudget;

type Entry = {
  name: string;
  clientConfig: { url: string };
  failurePolicy: string;
  rules: { operations: string[]; resources: string[] }[];
  namespaceSelector: unknown;
  objectSelector?: unknown;
  matchConditions?: { expression: string }[];
};
const entries = (pubs: PodUnavailableBudget[], scope?: { matchLabels: Record<string, string> }) =>
  (podCreateWebhookConfiguration(pubs, 'https://x', 'CA', scope) as unknown as { webhooks?: Entry[] })
    .webhooks ?? [];

describe('podCreateWebhookConfiguration: an entry per budget, for the pods it selects', () => {
  const bySelector = budget('a-pub', { selector: { matchLabels: { app: 'a' } }, maxUnavailable: 1 });
  const byTarget = budget('b-pub', {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'b' },
    maxUnavailable: 1,
  });

  it('pod CREATE in the budget’s namespace only, failing open', () => {
    const [e] = entries([bySelector]);
    expect(e!.name).toBe('a-pub.ns.pub.pods.regatta.kruise.io');
    expect(e!.clientConfig.url).toBe(`https://x${MUTATE_POD_PATH}`);
    expect(e!.rules).toEqual([
      {
        apiGroups: [''],
        apiVersions: ['v1'],
        operations: ['CREATE'],
        resources: ['pods'],
        scope: 'Namespaced',
      },
    ]);
    expect(e!.failurePolicy).toBe('Ignore');
    expect(e!.namespaceSelector).toEqual({
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns'] }],
    });
  });

  it('a selector budget: its selector as the objectSelector', () => {
    const [e] = entries([bySelector]);
    expect(e!.objectSelector).toEqual({ matchLabels: { app: 'a' } });
    expect(e!.matchConditions).toBeUndefined();
  });

  it('a targetRef budget: a condition on the pod’s controller', () => {
    const [e] = entries([byTarget]);
    expect(e!.objectSelector).toBeUndefined();
    expect(e!.matchConditions![0]!.expression).toBe(
      targetControllerExpression({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'b' }),
    );
  });

  it.each([
    ['an empty selector', budget('e', { selector: {}, maxUnavailable: 1 })],
    ['no selector nor target', budget('e', { maxUnavailable: 1 })],
    [
      'a budget being deleted',
      budget('e', { selector: { matchLabels: { a: 'b' } } }, { deletionTimestamp: 't' }),
    ],
  ])('no entry for %s', (_, pub) => {
    expect(entries([pub])).toEqual([]);
  });

  it('sorted, one per budget; no webhooks field when there is none; the scope kept', () => {
    expect(entries([byTarget, bySelector, bySelector]).map((e) => e.name)).toEqual([
      podCreateEntryName(bySelector),
      podCreateEntryName(byTarget),
    ]);
    expect('webhooks' in podCreateWebhookConfiguration([], 'https://x', 'CA')).toBe(false);
    const scoped = podCreateWebhookConfiguration([bySelector], 'https://x', 'CA', {
      matchLabels: { t: 'r1' },
    });
    expect(scoped.metadata?.name).toBe('regatta-podunavailablebudget-r1');
    expect(scoped.kind).toBe('MutatingWebhookConfiguration');
    expect((scoped as unknown as { webhooks: Entry[] }).webhooks[0]!.namespaceSelector).toMatchObject({
      matchLabels: { t: 'r1' },
    });
  });
});

describe('podCreateWebhookConfiguration: bounded', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      budget(
        `pub-${i}`,
        { selector: { matchLabels: { app: `a${i}` } }, maxUnavailable: 1 },
        { namespace: `ns-${i % 3}` },
      ),
    );

  it(`an entry per budget up to ${MAX_POD_CREATE_ENTRIES}`, () => {
    expect(entries(many(MAX_POD_CREATE_ENTRIES))).toHaveLength(MAX_POD_CREATE_ENTRIES);
  });

  it('past it, one entry for the budgets’ namespaces, failing open', () => {
    const [one, ...rest] = entries(many(MAX_POD_CREATE_ENTRIES + 1));
    expect(rest).toEqual([]);
    expect(one!.name).toBe(ALL_BUDGET_NAMESPACES_ENTRY);
    expect(one!.failurePolicy).toBe('Ignore');
    expect(one!.objectSelector).toBeUndefined();
    expect(one!.matchConditions).toBeUndefined();
    expect(one!.namespaceSelector).toEqual({
      matchExpressions: [
        { key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns-0', 'ns-1', 'ns-2'] },
      ],
    });
  });
});

describe('targetControllerExpression', () => {
  it.each([
    [
      { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      "r.kind == 'CloneSet' && r.apiVersion.startsWith('apps.kruise.io/') && r.name == 'web'",
    ],
    [
      { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' },
      "r.kind == 'StatefulSet' && r.apiVersion.startsWith('apps/') && r.name == 'db'",
    ],
    [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web.v1' },
      "r.kind == 'ReplicaSet' && r.apiVersion.startsWith('apps/') && r.name.matches('^web\\\\.v1-[a-z0-9]+$')",
    ],
  ])('%o', (ref, cond) => {
    expect(targetControllerExpression(ref)).toBe(
      `has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(r, has(r.controller) && r.controller && ${cond})`,
    );
  });
});

describe('podCreateDefaulter: a new pod names its budget', () => {
  const cs = {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'cs-1' },
    spec: { replicas: 2 },
  } as WorkloadView;
  const workloads = {
    get: (group: string, kind: string, _ns: string, name: string) =>
      group === 'apps.kruise.io' && kind === 'CloneSet' && name === 'web' ? cs : undefined,
    replicaSets: () => [],
  };
  const pubs = [
    budget('sel-pub', { selector: { matchLabels: { app: 'other' } }, maxUnavailable: 1 }),
    budget('web-pub', {
      targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' },
      maxUnavailable: 1,
    }),
  ];
  const handler = podCreateDefaulter({ pubs: () => pubs, workloads });
  const pod = (labels: Record<string, string>, owned: boolean): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'web-',
      labels,
      ...(owned
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps.kruise.io/v1alpha1',
                kind: 'CloneSet',
                name: 'web',
                uid: 'cs-1',
                controller: true,
              },
            ],
          }
        : {}),
    },
    spec: { containers: [{ name: 'main', image: 'nginx' }] },
  });
  const input = (p: Pod, operation: 'CREATE' | 'UPDATE' = 'CREATE', subResource?: string) =>
    ({
      operation,
      object: p,
      oldObject: null,
      namespace: 'ns',
      dryRun: false,
      uid: 'u',
      ...(subResource ? { subResource } : {}),
    }) as AdmissionInput<Pod>;
  const annotation = async (i: AdmissionInput<Pod>) =>
    ((await handler(i)) as Pod | undefined)?.metadata?.annotations?.['kruise.io/related-pub'];

  it.each([
    ['the target’s pod', input(pod({ app: 'web' }, true)), 'web-pub'],
    ['a pod the selector matches', input(pod({ app: 'other' }, false)), 'sel-pub'],
    ['a pod no budget selects', input(pod({ app: 'x' }, false)), undefined],
    ['an update', input(pod({ app: 'other' }, false), 'UPDATE'), undefined],
    ['an eviction', input(pod({ app: 'other' }, false), 'CREATE', 'eviction'), undefined],
  ])('%s → %s', async (_, i, want) => {
    expect(await annotation(i)).toBe(want);
  });
});
