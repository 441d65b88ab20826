import type { Pod, WorkloadSpread } from '@regatta/api';
import { describe, expect, it } from 'vitest';
import { deletionCosts } from './deletion-cost.js';
import { FAKE_SUBSET } from './status.js';

const ws = (kind = 'CloneSet'): WorkloadSpread => ({
  metadata: { name: 'ws', namespace: 'ns' },
  spec: {
    targetRef: { apiVersion: 'apps.kruise.io/v1alpha1', kind, name: 'cs' },
    subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b', maxReplicas: 2 }, { name: 'c' }],
  },
});
const pod = (name: string, ready = true, cost?: string): Pod => ({
  metadata: { name, creationTimestamp: '2026-12-07T09:00:00Z', ...(cost ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': cost } } : {}) },
  spec: { nodeName: 'n' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const costs = (groups: Record<string, Pod[]>, latest = 'v', version = 'v', kind?: string) =>
  Object.fromEntries(deletionCosts(ws(kind), new Map([[version, new Map(Object.entries(groups))]]), 6, latest).map((w) => [w.pod.metadata?.name, w.cost]));

describe('deletionCosts (update_pod_deletion_cost.go)', () => {
  it('100·(n−i) per subset: later subsets are scaled in first', () => {
    expect(costs({ a: [pod('a1')], b: [pod('b1')], c: [pod('c1')] })).toEqual({ a1: '300', b1: '200', c1: '100' });
  });

  it('pods beyond a maximum, the least healthy first, go before any: −100·(i+1)', () => {
    expect(costs({ a: [pod('a1'), pod('a2', false), pod('a3')], b: [], c: [] })).toEqual({ a1: '300', a2: '-100', a3: '300' });
  });

  it('pods of no subset go first; an older version reverses the order', () => {
    expect(costs({ [FAKE_SUBSET]: [pod('x')] })).toEqual({ x: '-400' });
    expect(costs({ a: [pod('a1')], c: [pod('c1')] }, 'new', 'old')).toEqual({ a1: '100', c1: '300' });
  });

  it('skips pods that carry the cost already, and kinds that ignore it', () => {
    expect(costs({ a: [pod('a1', true, '300')], b: [pod('b1')] })).toEqual({ b1: '200' });
    expect(costs({ a: [pod('a1')] }, 'v', 'v', 'Job')).toEqual({});
  });
});
