import type { Pod, WorkloadSpread } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import {
  ALL_SPREADS_ENTRY,
  MAX_POD_WEBHOOK_ENTRIES,
  podWebhookConfiguration,
  targetKindsExpression,
  targetMatchExpression,
} from './pod-webhook-configuration.js';
import { spreadForPod } from './target.js';

const spread = (name: string, kind: string, apiVersion: string, target: string, namespace = 'ns'): WorkloadSpread => ({
  metadata: { name, namespace },
  spec: { targetRef: { apiVersion, kind, name: target }, subsets: [{ name: 'a' }] },
});

describe('the pod webhook configuration (docs/adr/0081)', () => {
  it('one entry per spread: its namespace, pod CREATE, fail closed, a CEL condition on the controller reference', () => {
    const cfg = podWebhookConfiguration(
      [spread('b', 'Deployment', 'apps/v1', 'web'), spread('a', 'CloneSet', 'apps.kruise.io/v1alpha1', 'cs', 'other')],
      'https://127.0.0.1:9443',
      'CA',
    );
    expect(cfg.metadata?.name).toBe('regatta-workloadspread-pods');
    expect(cfg.webhooks!.map((w) => w['name'])).toEqual(['a.other.workloadspread.pods.regatta.kruise.io', 'b.ns.workloadspread.pods.regatta.kruise.io']);
    const w = cfg.webhooks![1]!;
    expect(w['failurePolicy']).toBe('Fail');
    expect(w['rules']).toEqual([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'], scope: 'Namespaced' }]);
    expect(w['namespaceSelector']).toEqual({ matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns'] }] });
    expect(w['matchConditions']).toEqual([{ name: 'controlled-by-target', expression: targetMatchExpression(spread('b', 'Deployment', 'apps/v1', 'web')) }]);
  });

  it.each([
    ['CloneSet', 'apps.kruise.io/v1alpha1', 'cs', "r.kind == 'CloneSet' && r.apiVersion.startsWith('apps.kruise.io/') && r.name == 'cs'"],
    ['Deployment', 'apps/v1', 'web.v2', "r.kind == 'ReplicaSet' && r.apiVersion.startsWith('apps/') && r.name.matches('^web\\\\.v2-[a-z0-9]+$')"],
    ['Job', 'batch/v1', 'j', "r.kind == 'Job' && r.apiVersion.startsWith('batch/') && r.name == 'j'"],
  ])('%s: the condition names the controller', (kind, apiVersion, name, want) => {
    expect(targetMatchExpression(spread('s', kind, apiVersion, name))).toBe(
      `has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(r, has(r.controller) && r.controller && ${want})`,
    );
  });

  it('no spreads: no entries (no pod reaches the program); a scope is ANDed and names the configuration', () => {
    expect(podWebhookConfiguration([], 'u', 'c').webhooks).toBeUndefined();
    const scoped = podWebhookConfiguration([spread('a', 'Job', 'batch/v1', 'j')], 'u', 'c', { matchLabels: { 'regatta.test/run': 'r1' } });
    expect(scoped.metadata?.name).toBe('regatta-workloadspread-pods-r1');
    expect(scoped.webhooks?.[0]?.['namespaceSelector']).toEqual({
      matchLabels: { 'regatta.test/run': 'r1' },
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns'] }],
    });
  });
});

describe('the pod webhook configuration, bounded (docs/adr/0081 "Bounded")', () => {
  const many = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      i % 2 === 0
        ? spread(`s${i}`, 'CloneSet', 'apps.kruise.io/v1alpha1', `cs${i}`, `ns-${i % 3}`)
        : spread(`s${i}`, 'Deployment', 'apps/v1', `d${i}`, `ns-${i % 3}`),
    );

  it(`an entry per spread up to ${MAX_POD_WEBHOOK_ENTRIES}`, () => {
    expect(podWebhookConfiguration(many(MAX_POD_WEBHOOK_ENTRIES), 'u', 'c').webhooks).toHaveLength(MAX_POD_WEBHOOK_ENTRIES);
  });

  it("past it, one entry failing closed: the targeted kinds' pods in the spreads' namespaces", () => {
    const [one, ...rest] = podWebhookConfiguration(many(MAX_POD_WEBHOOK_ENTRIES + 1), 'u', 'c').webhooks!;
    expect(rest).toEqual([]);
    expect(one!['name']).toBe(ALL_SPREADS_ENTRY);
    expect(one!['failurePolicy']).toBe('Fail');
    expect(one!['objectSelector']).toBeUndefined();
    expect(one!['namespaceSelector']).toEqual({
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['ns-0', 'ns-1', 'ns-2'] }],
    });
    expect(one!['matchConditions']).toEqual([{ name: 'controlled-by-targeted-kind', expression: targetKindsExpression(many(2)) }]);
    expect(targetKindsExpression(many(2))).toBe(
      "has(object.metadata.ownerReferences) && object.metadata.ownerReferences.exists(r, has(r.controller) && r.controller && r.kind in ['CloneSet', 'ReplicaSet'])",
    );
  });
});

describe('spreadForPod', () => {
  const owned = (kind: string, name: string, apiVersion: string, labels: Record<string, string> = {}): Pod => ({
    metadata: { namespace: 'ns', labels, ownerReferences: [{ apiVersion, kind, name, uid: 'u', controller: true }] },
  });
  const spreads = [spread('cs', 'CloneSet', 'apps.kruise.io/v1alpha1', 'cs'), spread('dep', 'Deployment', 'apps/v1', 'web')];
  it.each<[string, Pod, string | undefined]>([
    ['its CloneSet', owned('CloneSet', 'cs', 'apps.kruise.io/v1alpha1'), 'cs'],
    ['a Deployment through its ReplicaSet (not cached yet)', owned('ReplicaSet', 'web-5d4f', 'apps/v1', { 'pod-template-hash': '5d4f' }), 'dep'],
    ['another CloneSet', owned('CloneSet', 'other', 'apps.kruise.io/v1alpha1'), undefined],
    ['no controller', { metadata: { namespace: 'ns' } }, undefined],
  ])('%s', (_n, pod, want) => {
    expect(spreadForPod(pod, 'ns', spreads, () => undefined)?.metadata?.name).toBe(want);
  });
});
