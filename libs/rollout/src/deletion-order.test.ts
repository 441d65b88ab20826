import type { Labels } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import { compareActivePods } from './active-pods.js';
import {
  POD_DELETION_COST_ANNOTATION,
  choosePodsToDelete,
  compareForDeletion,
  podDeletionCost,
  sameNodeRanks,
  spreadConstraintRanks,
} from './deletion-order.js';

const nowT = '2024-05-01T12:00:00Z';
const thenT = '2024-04-01T12:00:00Z';
function pod(
  name: string,
  node: string,
  phase: string,
  ready: boolean,
  restarts: number,
  readySince: string | null,
  created: string | null,
  annotations?: Record<string, string>,
): Pod {
  return {
    metadata: {
      name,
      ...(created ? { creationTimestamp: created } : {}),
      ...(annotations ? { annotations } : {}),
    },
    spec: { nodeName: node },
    status: {
      phase,
      ...(ready
        ? {
            conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }],
            containerStatuses: [{ name: 'c', restartCount: restarts }],
          }
        : {}),
    },
  };
}

// TestSortingActivePods
describe('compareForDeletion (ActivePodsWithRanks)', () => {
  const unscheduled = pod('unscheduled', '', 'Pending', false, 0, null, null);
  const scheduledPending = pod('pending', 'node', 'Pending', false, 0, null, null);
  const unknownPhase = pod('unknown-phase', 'node', 'Unknown', false, 0, null, null);
  const runningNotReady = pod('not-ready', 'node', 'Running', false, 0, null, null);
  const readyNoTransition = pod('ready-no-last-transition-time', 'node', 'Running', true, 0, null, null);
  const readyNow = pod('ready-now', 'node', 'Running', true, 0, nowT, nowT);
  const readyThen = pod('ready-then', 'node', 'Running', true, 0, thenT, thenT);
  const readyNowHighRestarts = pod('ready-high-restarts', 'node', 'Running', true, 9001, nowT, nowT);
  const readyNowCreatedThen = pod('ready-now-created-then', 'node', 'Running', true, 0, nowT, thenT);
  const lowCost = pod('low-deletion-cost', 'node', 'Running', true, 0, nowT, thenT, {
    [POD_DELETION_COST_ANNOTATION]: '10',
  });
  const highCost = pod('high-deletion-cost', 'node', 'Running', true, 0, nowT, thenT, {
    [POD_DELETION_COST_ANNOTATION]: '100',
  });

  it.each([
    unscheduled,
    scheduledPending,
    unknownPhase,
    runningNotReady,
    readyNowCreatedThen,
    readyNow,
    readyThen,
    readyNowHighRestarts,
  ])('%# never compares less than itself', (p) => {
    expect(compareForDeletion(p, p)).toBe(0);
    expect(compareActivePods(p, p)).toBe(0);
  });

  const lesserGreater: [Pod, Pod][] = [
    [unscheduled, scheduledPending],
    [scheduledPending, unknownPhase],
    [unknownPhase, runningNotReady],
    [runningNotReady, readyNoTransition],
    [readyNoTransition, readyNow],
    [readyNow, readyThen],
    [readyNowHighRestarts, readyNow],
    [readyNow, readyNowCreatedThen],
    [lowCost, highCost],
  ];
  it.each(lesserGreater)('%# lesser is deleted first', (lesser, greater) => {
    expect(compareForDeletion(lesser, greater)).toBeLessThan(0);
    expect(compareForDeletion(greater, lesser)).toBeGreaterThan(0);
  });

  it('puts unavailable before available, then lower cost, then higher rank', () => {
    const a = pod('a', 'n', 'Running', true, 0, nowT, nowT);
    const b = pod('b', 'n', 'Running', true, 0, nowT, nowT);
    expect(compareForDeletion(a, b, { isAvailable: (p) => p === b })).toBeLessThan(0);
    expect(compareForDeletion(a, b, { ranks: new Map([[b, 2]]) })).toBeGreaterThan(0);
  });
});

describe('podDeletionCost', () => {
  it.each([
    [undefined, 0],
    ['10', 10],
    ['-5', -5],
    ['0', 0],
    ['-007', -7],
    ['+1', 0],
    ['007', 0],
    ['abc', 0],
    ['2147483648', 0],
    ['-2147483648', -2147483648],
  ])('%j → %i', (v, expected) => {
    expect(
      podDeletionCost({
        metadata: v === undefined ? {} : { annotations: { [POD_DELETION_COST_ANNOTATION]: v } },
      }),
    ).toBe(expected);
  });
});

// TestSameNodeRanker
describe('sameNodeRanks', () => {
  it('ranks crowded nodes', () => {
    const nodes = ['a', '', '', 'b', 'a', 'c', 'b', 'd', 'd', 'd', 'a'];
    const pods = nodes.map((n, i): Pod => ({ metadata: { uid: String(i) }, spec: n ? { nodeName: n } : {} }));
    const ranks = sameNodeRanks(pods);
    expect(Object.fromEntries([...ranks].map(([p, r]) => [p.metadata?.uid, r]))).toEqual({
      '0': 2,
      '4': 1,
      '3': 1,
      '7': 2,
      '8': 1,
    });
  });
});

// TestSpreadConstraintsRanker: 3 cases
describe('spreadConstraintRanks', () => {
  const zone = 'failure-domain.beta.kubernetes.io/zone';
  const nodes: Record<string, Record<string, string>> = {
    a: {},
    b: { 'kubernetes.io/hostname': 'b', [zone]: 'z1' },
    c: { 'kubernetes.io/hostname': 'c', [zone]: 'z1' },
    d: { 'kubernetes.io/hostname': 'd', [zone]: 'z1' },
    e: { 'kubernetes.io/hostname': 'e', [zone]: 'z2' },
    f: { 'kubernetes.io/hostname': 'f', [zone]: 'z2' },
    g: { 'kubernetes.io/hostname': 'g', [zone]: 'z2' },
    h: { 'kubernetes.io/hostname': 'h', [zone]: 'z3' },
    i: { 'kubernetes.io/hostname': 'i', [zone]: 'z3' },
  };
  const lookup = (n: string): Labels | undefined => nodes[n];
  const gen = (n: number, node: string) =>
    Array.from(
      { length: n },
      (_, i): Pod => ({ metadata: { uid: `${node}-${i}` }, spec: { nodeName: node } }),
    );
  const pods = [
    ...gen(2, 'a'),
    ...gen(2, 'b'),
    ...gen(3, 'c'),
    ...gen(5, 'd'),
    ...gen(5, 'e'),
    ...gen(3, 'f'),
    ...gen(5, 'i'),
  ];
  const order = (constraints: Parameters<typeof spreadConstraintRanks>[1]) => {
    const ranks = spreadConstraintRanks(pods, constraints, lookup);
    return pods
      .filter((p) => (ranks.get(p) ?? 0) > 0)
      .sort((x, y) => (ranks.get(y) ?? 0) - (ranks.get(x) ?? 0))
      .map((p) => p.metadata?.uid);
  };
  it('zone, no limit', () => {
    expect(order([{ topologyKey: zone }]).join(' ')).toBe(
      'd-0 d-1 c-0 e-0 d-2 e-1 b-0 e-2 c-1 f-0 i-0 d-3 e-3 i-1 b-1 f-1 i-2 c-2 e-4 i-3 d-4 f-2 i-4',
    );
  });
  it('zone limited to z2, z3', () => {
    expect(order([{ topologyKey: zone, limitedValues: ['z2', 'z3'] }]).join(' ')).toBe(
      'e-0 e-1 e-2 f-0 i-0 e-3 i-1 f-1 i-2 e-4 i-3 f-2 i-4',
    );
  });
  it('zone and hostname', () => {
    expect(order([{ topologyKey: zone }, { topologyKey: 'kubernetes.io/hostname' }]).join(' ')).toBe(
      'd-0 e-0 d-1 e-1 c-0 i-0 d-2 e-2 i-1 f-0 b-0 c-1 i-2 d-3 e-3 f-1 i-3 b-1 c-2 e-4 d-4 f-2 i-4',
    );
  });
});

describe('choosePodsToDelete', () => {
  const mk = (name: string, node: string, isReady: boolean): Pod =>
    pod(name, node, 'Running', isReady, 0, nowT, nowT);
  it('takes old-revision victims first, then updated ones, each in deletion order', () => {
    const old = [mk('o1', 'n1', true), mk('o2', 'n1', false), mk('o3', 'n2', true)];
    const updated = [mk('u1', 'n3', true), mk('u2', '', true)];
    const names = (ps: Pod[]) => ps.map((p) => p.metadata?.name);
    expect(
      names(choosePodsToDelete({ total: 3, oldRevision: 2, notUpdatedPods: old, updatedPods: updated })),
    ).toEqual(['o2', 'o1', 'u2']);
    expect(
      names(choosePodsToDelete({ total: 2, oldRevision: 5, notUpdatedPods: old, updatedPods: updated })),
    ).toEqual(['o2', 'o1']);
    expect(
      names(choosePodsToDelete({ total: 1, oldRevision: 0, notUpdatedPods: old, updatedPods: updated })),
    ).toEqual(['u2']);
    // a whole group is taken unsorted
    expect(
      names(choosePodsToDelete({ total: 2, oldRevision: 0, notUpdatedPods: old, updatedPods: updated })),
    ).toEqual(['u1', 'u2']);
  });
});
