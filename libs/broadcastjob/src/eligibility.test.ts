import { describe, expect, it } from 'vitest';
import { type Node, type SchedulingSpec, unfitReason } from './eligibility.js';

const node = (name: string, extra: { labels?: Record<string, string>; taints?: { key: string; value?: string; effect: string }[]; unschedulable?: boolean } = {}): Node => ({
  metadata: { name, labels: extra.labels ?? {} },
  spec: { taints: extra.taints ?? [], ...(extra.unschedulable ? { unschedulable: true } : {}) },
});

describe('unfitReason (checkNodeFitness)', () => {
  it.each<[string, SchedulingSpec, Node, string | undefined]>([
    ['an empty spec fits a plain node', {}, node('n1'), undefined],
    ['nodeName of another node', { nodeName: 'n2' }, node('n1'), "node(s) didn't match the requested node name"],
    ['nodeSelector matches', { nodeSelector: { zone: 'a' } }, node('n1', { labels: { zone: 'a' } }), undefined],
    ['nodeSelector misses', { nodeSelector: { zone: 'a' } }, node('n1', { labels: { zone: 'b' } }), "node(s) didn't match Pod's node affinity/selector"],
    [
      'affinity In matches one of the terms',
      { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'x', operator: 'In', values: ['1'] }] }, { matchExpressions: [{ key: 'zone', operator: 'Exists' }] }] } } } },
      node('n1', { labels: { zone: 'a' } }),
      undefined,
    ],
    [
      'affinity NotIn excludes',
      { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['a'] }] }] } } } },
      node('n1', { labels: { zone: 'a' } }),
      "node(s) didn't match Pod's node affinity/selector",
    ],
    [
      'affinity matchFields metadata.name',
      { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] }] } } } },
      node('n1'),
      undefined,
    ],
    ['untolerated NoSchedule taint', {}, node('n1', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }), "node(s) had taint {k: v}, that the pod didn't tolerate"],
    ['untolerated NoExecute taint', {}, node('n1', { taints: [{ key: 'k', effect: 'NoExecute' }] }), "node(s) had taint {k: }, that the pod didn't tolerate"],
    ['PreferNoSchedule is ignored', {}, node('n1', { taints: [{ key: 'k', effect: 'PreferNoSchedule' }] }), undefined],
    ['Equal toleration', { tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }] }, node('n1', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }), undefined],
    ['Equal toleration, other value', { tolerations: [{ key: 'k', operator: 'Equal', value: 'w' }] }, node('n1', { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] }), "node(s) had taint {k: v}, that the pod didn't tolerate"],
    ['Exists without key tolerates all', { tolerations: [{ operator: 'Exists' }] }, node('n1', { taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] }), undefined],
    ['cordoned node', {}, node('n1', { unschedulable: true }), 'node(s) were unschedulable'],
    ['cordoned node, unschedulable tolerated', { tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] }, node('n1', { unschedulable: true }), undefined],
  ])('%s', (_name, spec, n, want) => {
    expect(unfitReason(spec, n)).toBe(want);
  });
});
