// §7.2 / §7.4: TestGetNamespaceForDistributor, TestNamespaceEventHandler, TestMatchFunctions
// (`pkg/controller/resourcedistribution/*_test.go`).
import { describe, expect, it } from 'vitest';
import type { ResourceDistribution, ResourceDistributionTargets } from '@regatta/api';
import type { Change, KubeObject } from '@regatta/kube';
import {
  distributionsForNamespaceChange,
  includesNamespace,
  matchesTargets,
  namespacesForDistribution,
} from './matching.js';

const list = (...names: string[]) => ({ list: names.map((name) => ({ name })) });
// ns-1…ns-5, labels group one/one/two/one/two
const FIXTURE = [
  { name: 'ns-1', labels: { group: 'one' } },
  { name: 'ns-2', labels: { group: 'one' } },
  { name: 'ns-3', labels: { group: 'two' } },
  { name: 'ns-4', labels: { group: 'one' } },
  { name: 'ns-5', labels: { group: 'two' } },
];
const DO_RECONCILE: ResourceDistributionTargets = {
  includedNamespaces: list('ns-1', 'ns-3', 'ns-5'),
  excludedNamespaces: list('ns-4'),
  namespaceSelector: { matchLabels: { group: 'one' } },
};
const rd = (name: string, targets: ResourceDistributionTargets): ResourceDistribution => ({
  metadata: { name },
  spec: { resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }, targets },
});

describe('namespacesForDistribution (listNamespacesForDistributor)', () => {
  it('TestGetNamespaceForDistributor: matched {ns-1,ns-2,ns-3,ns-5}, unmatched {ns-4}', () => {
    expect(namespacesForDistribution(DO_RECONCILE, FIXTURE)).toEqual({
      matched: ['ns-1', 'ns-2', 'ns-3', 'ns-5'],
      unmatched: ['ns-4'],
    });
  });
  const withSystem = [...FIXTURE, { name: 'kube-system' }, { name: 'kube-public' }, { name: 'default' }];
  it.each<[string, ResourceDistributionTargets, string[], string[]]>([
    ['empty targets distribute nowhere', {}, [], ['default', 'kube-public', 'kube-system', 'ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5']],
    ['allNamespaces never reaches kube-system / kube-public', { allNamespaces: true }, ['default', 'ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5'], ['kube-public', 'kube-system']],
    ['all + excluded', { allNamespaces: true, excludedNamespaces: list('ns-2', 'default') }, ['ns-1', 'ns-3', 'ns-4', 'ns-5'], ['default', 'kube-public', 'kube-system', 'ns-2']],
    ['all ignores the selector', { allNamespaces: true, namespaceSelector: { matchLabels: { group: 'x' } } }, ['default', 'ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5'], ['kube-public', 'kube-system']],
    ['included names that do not exist are matched (NamespaceNotExists later)', { includedNamespaces: list('ns-1', 'ghost') }, ['ghost', 'ns-1'], ['default', 'kube-public', 'kube-system', 'ns-2', 'ns-3', 'ns-4', 'ns-5']],
    ['kube-system listed by name is still never matched', { includedNamespaces: list('kube-system', 'ns-2') }, ['ns-2'], ['default', 'kube-public', 'kube-system', 'ns-1', 'ns-3', 'ns-4', 'ns-5']],
    ['selector only', { namespaceSelector: { matchLabels: { group: 'two' } } }, ['ns-3', 'ns-5'], ['default', 'kube-public', 'kube-system', 'ns-1', 'ns-2', 'ns-4']],
    ['v1alpha1 selector name', { namespaceLabelSelector: { matchExpressions: [{ key: 'group', operator: 'In', values: ['two'] }] } }, ['ns-3', 'ns-5'], ['default', 'kube-public', 'kube-system', 'ns-1', 'ns-2', 'ns-4']],
    ['an empty selector selects nothing', { namespaceSelector: {} }, [], ['default', 'kube-public', 'kube-system', 'ns-1', 'ns-2', 'ns-3', 'ns-4', 'ns-5']],
    ['excluded wins over included', { includedNamespaces: list('ns-1', 'ns-2'), excludedNamespaces: list('ns-2') }, ['ns-1'], ['default', 'kube-public', 'kube-system', 'ns-2', 'ns-3', 'ns-4', 'ns-5']],
  ])('%s', (_, targets, matched, unmatched) => {
    expect(namespacesForDistribution(targets, withSystem)).toEqual({ matched, unmatched });
  });
});

describe('TestMatchFunctions', () => {
  it('included-list matcher', () => {
    expect(includesNamespace(DO_RECONCILE, 'ns-3')).toBe(true);
    expect(includesNamespace(DO_RECONCILE, 'ns-2')).toBe(false);
  });
  it.each<[string, Record<string, string>, boolean]>([
    ['ns-1', { group: 'x' }, true], // included
    ['ns-2', { group: 'one' }, true], // selector
    ['ns-2', { group: 'two' }, false],
    ['ns-4', { group: 'one' }, false], // excluded
    ['kube-system', { group: 'one' }, false], // system
  ])('targets matcher: %s %j → %s', (name, labels, expected) => {
    expect(matchesTargets(DO_RECONCILE, name, labels)).toBe(expected);
    expect(matchesTargets({ allNamespaces: true }, name, labels)).toBe(name !== 'kube-system');
  });
});

describe('TestNamespaceEventHandler: which distributions a Namespace change enqueues', () => {
  const ns = (name: string, labels: Record<string, string> = {}): KubeObject => ({ metadata: { name, labels } });
  const first = rd('rd-1', DO_RECONCILE);
  const second = rd('rd-2', { includedNamespaces: list('ns-1'), namespaceSelector: { matchLabels: { group: 'seven' } } });
  const names = (c: Change) => distributionsForNamespaceChange(c, [first, second]).map((r) => r.name);
  it('create ns-6 (group=one) → 1', () => {
    expect(names({ type: 'add', object: ns('ns-6', { group: 'one' }) })).toEqual(['rd-1']);
  });
  it('relabel one → seven → 2 (old labels match rd-1, new ones rd-2)', () => {
    expect(names({ type: 'update', object: ns('ns-6', { group: 'seven' }), old: ns('ns-6', { group: 'one' }) })).toEqual(['rd-1', 'rd-2']);
  });
  it('an update that keeps the labels → 0', () => {
    expect(names({ type: 'update', object: ns('ns-6', { group: 'one' }), old: ns('ns-6', { group: 'one' }) })).toEqual([]);
  });
  it('delete ns-1 (included in both) → 2; delete ns-8 → 0', () => {
    expect(names({ type: 'delete', object: ns('ns-1') })).toEqual(['rd-1', 'rd-2']);
    expect(names({ type: 'delete', object: ns('ns-8') })).toEqual([]);
  });
  it('create kube-system → 0, even for allNamespaces', () => {
    const all = rd('all', { allNamespaces: true });
    expect(distributionsForNamespaceChange({ type: 'add', object: ns('kube-system') }, [all])).toEqual([]);
  });
});
