import type { Pod, WorkloadSpread } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { podWebhookConfiguration, targetMatchExpression } from './pod-webhook-configuration.js';
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
