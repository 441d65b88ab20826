import type { Pod, WorkloadSpread } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { injectSubset } from './inject.js';
import { matchedOf } from './matched.js';

const zone = (v: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [v] }] });
const ws: WorkloadSpread = {
  metadata: { name: 'ws', namespace: 'ns' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' },
    subsets: [
      {
        name: 'a',
        requiredNodeSelectorTerm: zone('a'),
        preferredNodeSelectorTerms: [{ weight: 10, preference: zone('a1') }],
        tolerations: [{ key: 'dedicated', operator: 'Exists' }],
        patch: { metadata: { labels: { subset: 'a' } }, spec: { priorityClassName: 'high' } },
      },
    ],
  },
};
const pod = (spec: Record<string, unknown> = {}): Pod => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], priority: 0, ...spec } });

describe('injectSubset (injectWorkloadSpreadIntoPod)', () => {
  it('adds tolerations, preferred and required terms, the patch and the annotation', () => {
    const got = injectSubset(ws, pod(), 'a') as Pod & { spec: Record<string, unknown> };
    expect(got.spec['tolerations']).toEqual([{ key: 'dedicated', operator: 'Exists' }]);
    expect(got.spec['affinity']).toEqual({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [zone('a')] },
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: zone('a1') }],
      },
    });
    expect(got.metadata?.labels).toEqual({ subset: 'a' });
    expect(got.spec['priorityClassName']).toBe('high');
    expect(got.spec['priority']).toBeUndefined(); // the API server's priority admission sets it again
    expect(matchedOf(got)).toEqual({ name: 'ws', subset: 'a' });
  });

  it('ANDs the required term into every term the pod has', () => {
    const own = { matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] };
    const got = injectSubset(ws, pod({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [own, own] } } } }), 'a', 'gen');
    const terms = (got.spec as { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: unknown[] } } } }).affinity
      .nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;
    expect(terms).toEqual([
      { matchExpressions: [...own.matchExpressions, ...zone('a').matchExpressions] },
      { matchExpressions: [...own.matchExpressions, ...zone('a').matchExpressions] },
    ]);
    expect(matchedOf(got)).toEqual({ name: 'ws', subset: 'a', uid: 'gen' });
  });

  it('a subset not in the spec changes nothing', () => {
    expect(injectSubset(ws, pod(), 'zz')).toEqual(pod());
  });
});
