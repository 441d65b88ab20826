import { describe, expect, it } from 'vitest';
import {
  fitsNodeAffinity,
  nodeSelectorTermMatches,
  toleratesTaint,
  untoleratedTaints,
  type NodeSelectorRequirement,
  type SchedulingNode,
} from './node-scheduling.js';

const node = (labels: Record<string, string>, name = 'node-a'): SchedulingNode => ({
  metadata: { name, labels },
});

describe('toleratesTaint (core/v1 Toleration.ToleratesTaint)', () => {
  it.each([
    [
      'Exists on the key, any effect',
      { key: 'k', operator: 'Exists' },
      { key: 'k', effect: 'NoExecute' },
      true,
    ],
    [
      'Exists with another effect',
      { key: 'k', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'k', effect: 'NoExecute' },
      false,
    ],
    [
      'an empty key with Exists tolerates every taint',
      { operator: 'Exists' },
      { key: 'x', effect: 'NoSchedule' },
      true,
    ],
    [
      'Equal needs the value',
      { key: 'k', value: 'a' },
      { key: 'k', value: 'b', effect: 'NoSchedule' },
      false,
    ],
    ['Equal with the value', { key: 'k', value: 'a' }, { key: 'k', value: 'a', effect: 'NoSchedule' }, true],
    ['another key', { key: 'j', operator: 'Exists' }, { key: 'k', effect: 'NoSchedule' }, false],
  ] as const)('%s', (_what, t, taint, want) => {
    expect(toleratesTaint(t, taint)).toBe(want);
  });

  it('untoleratedTaints keeps only the effects asked for', () => {
    const taints = [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'b', effect: 'NoExecute' },
      { key: 'c', effect: 'PreferNoSchedule' },
    ];
    expect(
      untoleratedTaints(taints, [{ key: 'a', operator: 'Exists' }], ['NoSchedule', 'NoExecute']),
    ).toEqual([{ key: 'b', effect: 'NoExecute' }]);
  });
});

describe('nodeSelectorTermMatches (node affinity terms)', () => {
  const term = (r: NodeSelectorRequirement) => ({ matchExpressions: [r] });
  const cases: [string, NodeSelectorRequirement, Record<string, string>, boolean][] = [
    ['In', { key: 'zone', operator: 'In', values: ['a', 'b'] }, { zone: 'a' }, true],
    ['In, absent label', { key: 'zone', operator: 'In', values: ['a'] }, {}, false],
    ['NotIn, absent label', { key: 'zone', operator: 'NotIn', values: ['a'] }, {}, true],
    ['Exists', { key: 'gpu', operator: 'Exists' }, { gpu: '' }, true],
    ['DoesNotExist', { key: 'gpu', operator: 'DoesNotExist' }, { gpu: '1' }, false],
    ['Gt', { key: 'cores', operator: 'Gt', values: ['4'] }, { cores: '8' }, true],
    ['Lt', { key: 'cores', operator: 'Lt', values: ['4'] }, { cores: '8' }, false],
    [
      'Gt of a value that is no whole integer (ParseInt fails)',
      { key: 'cores', operator: 'Gt', values: ['4'] },
      { cores: '8x' },
      false,
    ],
    ['Gt with two values', { key: 'cores', operator: 'Gt', values: ['1', '2'] }, { cores: '8' }, false],
    ['an unknown operator', { key: 'zone', operator: 'Like', values: ['a'] }, { zone: 'a' }, false],
  ];
  it.each(cases)('%s', (_what, r, labels, want) => {
    expect(nodeSelectorTermMatches(term(r), node(labels))).toBe(want);
  });

  it('matchFields reads metadata.name only; an empty term matches no node', () => {
    const byName = { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-a'] }] };
    expect(nodeSelectorTermMatches(byName, node({}, 'node-a'))).toBe(true);
    expect(nodeSelectorTermMatches(byName, node({}, 'node-b'))).toBe(false);
    expect(nodeSelectorTermMatches({}, node({}))).toBe(false);
  });
});

describe('fitsNodeAffinity (nodeSelector and the required node affinity)', () => {
  const zoneA = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] };
  const zoneB = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] };
  const required = (nodeSelectorTerms: unknown[] | null) => ({
    affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } },
  });
  it.each([
    ['no selector, no affinity', {}, true],
    ['a nodeSelector that matches', { nodeSelector: { zone: 'a' } }, true],
    ['a nodeSelector that does not', { nodeSelector: { zone: 'b' } }, false],
    ['terms are ORed', required([zoneB, zoneA]), true],
    ['no term matches', required([zoneB]), false],
    ['a required affinity without terms matches no node', required(null), false],
  ] as const)('%s', (_what, spec, want) => {
    expect(fitsNodeAffinity(spec as Parameters<typeof fitsNodeAffinity>[0], node({ zone: 'a' }))).toBe(want);
  });
});
