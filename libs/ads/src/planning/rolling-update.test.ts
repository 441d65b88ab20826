// The rollout tables of docs/ads.md "Rolling update" (OpenKruise `pkg/controller/daemonset/daemonset_update_test.go`
// `TestGetUnavailableNumbers`, `TestFilterDaemonPodsNodeToUpdate`, `TestGetMaxCreateNum`, `TestNodeShouldUpdateBySelector`).
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { nodesNeedingPods } from './manage.js';
import {
  burstReplicas,
  nodeMatchesUpdateSelector,
  nodesToUpdate,
  partitionNodes,
  unavailableNumbers,
} from './rolling-update.js';

describe('unavailableNumbers', () => {
  const rows: [string, number, string | number | null, string | number | null, number, number][] = [
    ['no nodes', 0, 0, null, 0, 0],
    ['two nodes with ready pods', 2, 1, null, 0, 1],
    ['two nodes, one without pods: both zero → 1', 2, 0, null, 0, 1],
    ['surge strategy 0', 2, null, 0, 0, 1],
    ['maxUnavailable 50%', 2, '50%', null, 0, 1],
    ['surge 50%', 2, 0, '50%', 1, 0],
    ['surge 100%', 2, 0, '100%', 2, 0],
    ['maxUnavailable 50% of 3 rounds up', 3, '50%', null, 0, 2],
  ];
  it.each(rows)('%s', (_n, desired, mu, ms, wantSurge, wantUnavailable) => {
    expect(unavailableNumbers(mu, ms, desired)).toEqual({
      maxSurge: wantSurge,
      maxUnavailable: wantUnavailable,
    });
  });
});

describe('partition, burstReplicas', () => {
  it('scale percentages of desiredNumberScheduled rounding down', () => {
    expect(partitionNodes('50%', 5)).toBe(2);
    expect(partitionNodes(3, 5)).toBe(3);
    expect(partitionNodes(null, 5)).toBe(0);
    expect(burstReplicas(10, 100)).toBe(10);
    expect(burstReplicas('15%', 10)).toBe(1);
  });
});

const pod = (node: string, hash: string, terminating = false): Pod => ({
  metadata: {
    name: `${node}-${hash}`,
    labels: { 'controller-revision-hash': hash },
    ...(terminating ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
  },
  spec: { nodeName: node },
});

describe('nodesToUpdate (filterDaemonPodsToUpdate), hash v2', () => {
  const three = new Map([
    ['n1', [pod('n1', 'v1')]],
    ['n2', [pod('n2', 'v2')]],
    ['n3', [pod('n3', 'v1')]],
  ]);
  const labels = (canary: string[], names = ['n1', 'n2', 'n3', 'n4']) =>
    new Map<string, Record<string, string>>(
      names.map((n): [string, Record<string, string>] => [n, canary.includes(n) ? { canary: 'true' } : {}]),
    );
  const four = (n3Terminating = false) =>
    new Map([
      ['n1', [pod('n1', 'v1')]],
      ['n2', [pod('n2', 'v2')]],
      ['n3', [pod('n3', 'v1', n3Terminating)]],
      ['n4', [pod('n4', 'v1')]],
    ]);
  const canary = { matchLabels: { canary: 'true' } };
  it.each([
    ['partition 0', three, labels([]), null, 0, ['n2', 'n3', 'n1']],
    [
      'partition 1',
      new Map([
        ['n1', [pod('n1', 'v2')]],
        ['n2', [pod('n2', 'v1')]],
        ['n3', [pod('n3', 'v1')]],
      ]),
      labels([]),
      null,
      1,
      ['n1', 'n3'],
    ],
    ['partition 1, selector canary', four(), labels(['n3']), canary, 1, ['n2', 'n3']],
    ['partition 2, selector canary', four(), labels(['n1', 'n3', 'n4']), canary, 2, ['n2', 'n4']],
    [
      'partition 0, selector canary, n3 pod terminating',
      four(true),
      labels(['n1', 'n3']),
      canary,
      0,
      ['n2', 'n3', 'n1'],
    ],
  ] as const)('%s', (_n, nodeToPods, nodeLabels, selector, partition, want) => {
    expect(nodesToUpdate({ nodeToPods, nodeLabels, hash: 'v2', selector, partition })).toEqual(want);
  });
  it('drops nodes that no longer exist', () => {
    expect(
      nodesToUpdate({
        nodeToPods: three,
        nodeLabels: labels([], ['n1', 'n2']),
        hash: 'v2',
        selector: null,
        partition: 0,
      }),
    ).toEqual(['n2', 'n1']);
  });
});

describe('nodesNeedingPods (GetNodesNeedingPods)', () => {
  const names = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `node-${from + i}`);
  it.each([
    ['no changes, all new', 10, 10, 0, false, [], []],
    ['create step1', 0, 10, 10, true, names(0, 9), []],
    ['create step2', 0, 10, 9, true, names(0, 9), ['node-0']],
    ['create step3', 1, 10, 5, true, names(1, 9), names(1, 4)],
    [
      'create step4: import node-10, node-11',
      5,
      12,
      5,
      true,
      [...names(5, 9), 'node-10', 'node-11'],
      ['node-10', 'node-11'],
    ],
    ['create step5: 3 nodes offline', 4, 9, 5, true, names(5, 9), []],
    [
      'create step6: partition 0',
      4,
      9,
      0,
      true,
      ['node-5', 'node-6', 'node-7', 'node-9', 'node-10'],
      ['node-10', 'node-5', 'node-6', 'node-7', 'node-9'],
    ],
    ['create step7: import 3 nodes', 9, 12, 0, true, names(12, 14), names(12, 14)],
    ['update step1: partition 10', 0, 10, 10, false, [], []],
    ['update step3', 0, 10, 9, false, ['node-1'], ['node-1']],
    ['update step5', 1, 10, 5, false, names(1, 4), names(1, 4)],
    ['update step6: import 2 nodes', 5, 12, 5, false, ['node-11', 'node-12'], ['node-11', 'node-12']],
    ['selector step2: partition 15', 0, 20, 15, true, names(0, 9), names(0, 4)],
    ['selector step3: partition 10', 5, 20, 10, true, names(5, 9), names(5, 9)],
    ['bad case: partition 100 on create', 5, 10, 100, true, names(4, 9), []],
    ['bad case: old pod deleted manually during update', 5, 10, 5, false, ['node-6'], ['node-6']],
  ] as const)('%s', (_n, newPods, desired, partition, progressive, needing, want) => {
    expect(nodesNeedingPods(newPods, desired, partition, progressive, needing)).toEqual(want);
  });
});

describe('nodeMatchesUpdateSelector (NodeShouldUpdateBySelector)', () => {
  it('matches only a non-empty selector over the node labels', () => {
    expect(nodeMatchesUpdateSelector({ matchLabels: { key1: 'value2' } }, { key1: 'value1' })).toBe(false);
    expect(nodeMatchesUpdateSelector({ matchLabels: { key1: 'value1' } }, { key1: 'value1' })).toBe(true);
    expect(nodeMatchesUpdateSelector(null, { key1: 'value1' })).toBe(false);
    expect(nodeMatchesUpdateSelector({}, { key1: 'value1' })).toBe(false);
  });
});
