import type { Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import type { ClaimResizeState } from './claim-resize.js';
import {
  type ClaimsView,
  maxUnavailableOf,
  planRollingUpdate,
  scaleBudgetOf,
  unavailablePods,
} from './rolling-update.js';
import { sortPodsToUpdate } from './update-order.js';

const NOW = new Date('2026-12-02T12:00:00Z');
// "r0" healthy at r0; "r1~" running not ready at r1; "r0x" terminating; "r0*" specified-delete; "r0m" ready 10 s ago
function slot(s: string, i: number): Pod {
  const rev = s.slice(0, 2);
  const ready = !s.includes('~');
  return {
    metadata: {
      name: `web-${i}`,
      labels: {
        'controller-revision-hash': rev,
        ...(s.includes('*') ? { 'apps.kruise.io/specified-delete': 'true' } : {}),
      },
      uid: `uid-${i}`,
      ...(s.includes('x') ? { deletionTimestamp: '2026-12-02T11:00:00Z' } : {}),
    },
    status: {
      phase: 'Running',
      conditions: ready
        ? [
            {
              type: 'Ready',
              status: 'True',
              lastTransitionTime: s.includes('m') ? '2026-12-02T11:59:50Z' : '2026-12-02T11:00:00Z',
            },
          ]
        : [],
    },
  };
}

function round(spec: string, o: { partition: number; mu: number; minReady?: number; claims?: ClaimsView }) {
  const slots = spec.split(' ').map(slot);
  const { names } = unavailablePods(slots, o.minReady ?? 0, NOW, o.claims);
  const order = sortPodsToUpdate(
    {
      partition: o.partition,
      replicas: slots.length,
      unordered: false,
      updateRevision: 'r1',
      preparingUpdateAsUpdate: false,
    },
    slots,
  );
  return planRollingUpdate(slots, order, 'r1', o.mu, names, o.claims);
}

describe('rolling update rounds (stateful_set_control_test.go scenarios)', () => {
  it.each([
    {
      name: 'RollingUpdateWithMaxUnavailable round 1: pods 5 and 4',
      slots: 'r0 r0 r0 r0 r0 r0',
      partition: 3,
      mu: 2,
      updates: [5, 4],
    },
    {
      name: '… pod 4 ready, 5 running not ready: pod 3',
      slots: 'r0 r0 r0 r0 r1 r1~',
      partition: 3,
      mu: 2,
      updates: [3],
    },
    {
      name: '… 3,4,5 updated and ready: nothing (partition keeps 0-2)',
      slots: 'r0 r0 r0 r1 r1 r1',
      partition: 3,
      mu: 2,
      updates: [],
    },
    {
      name: 'RollingUpdateBlockByMaxUnavailable: pod 0 terminating → only pod 5',
      slots: 'r0x r0 r0 r0 r0 r0',
      partition: 3,
      mu: 2,
      updates: [5],
    },
    {
      name: '… pods 0 and 2 terminating, 5 ready → nothing',
      slots: 'r0x r0 r0x r0 r0 r1',
      partition: 3,
      mu: 2,
      updates: [],
    },
    {
      name: 'unavailable pods lower in the order count (#1480): the first available pod blocks',
      slots: 'r0 r0 r0~ r0~ r0 r0',
      partition: 0,
      mu: 2,
      updates: [],
    },
    {
      name: 'unavailable pods are updated even at the budget',
      slots: 'r0 r0 r0 r0 r0~ r0~',
      partition: 0,
      mu: 2,
      updates: [5, 4],
    },
    {
      name: 'OrderedReady (mu 1): the highest ordinal first',
      slots: 'r0 r0 r0',
      partition: 0,
      mu: 1,
      updates: [2],
    },
    {
      name: 'minReadySeconds: a pod ready 10 s of 60 is unavailable and blocks',
      slots: 'r0 r0 r0 r1m',
      partition: 0,
      mu: 1,
      minReady: 60,
      updates: [],
    },
    {
      name: 'minReadySeconds 5: the same pod is available',
      slots: 'r0 r0 r0 r1m',
      partition: 0,
      mu: 1,
      minReady: 5,
      updates: [2],
    },
  ])('$name', ({ slots, partition, mu, minReady, updates }) => {
    expect(round(slots, { partition, mu, ...(minReady ? { minReady } : {}) }).updates).toEqual(updates);
  });

  it('RollingUpdateWithSpecifiedDelete: pod 0 deleted, 5 and 4 updated (mu 3), 3 waits', () => {
    expect(round('r0* r0 r0 r0 r0 r0', { partition: 3, mu: 3 })).toEqual({
      specifiedDeletes: [0],
      resizes: [],
      updates: [5, 4],
    });
  });

  it('specified delete: available pods over budget are skipped, unavailable ones go', () => {
    expect(round('r0* r0~* r1* r1 r1 r1', { partition: 0, mu: 2 })).toEqual({
      specifiedDeletes: [2, 1],
      resizes: [],
      updates: [],
    });
  });

  it.each([
    { v: undefined, replicas: 5, want: 1 },
    { v: 3, replicas: 5, want: 3 },
    { v: '20%', replicas: 300, want: 60 },
    { v: '10%', replicas: 5, want: 1 },
    { v: '100%', replicas: 10, want: 10 },
  ])('maxUnavailable $v of $replicas → $want', ({ v, replicas, want }) => {
    expect(maxUnavailableOf(v, replicas)).toBe(want);
  });

  it('scale budget: unset → unlimited; at least 1', () => {
    expect(scaleBudgetOf(undefined, 5)).toBeUndefined();
    expect(scaleBudgetOf('10%', 5)).toBe(1);
    expect(scaleBudgetOf(2, 10)).toBe(2);
  });
});

describe('rolling update with claims resized on rolling update (statefulset_resize_pvc_test.go)', () => {
  // claims by pod index: m matched+ready, e needs expand, p resize pending (matched, capacity short), x mismatch
  const view = (claims: string): ClaimsView => {
    const at = (pod: Pod) => claims[Number(pod.metadata?.name?.split('-')[1])] ?? 'm';
    const state: Record<string, ClaimResizeState> = {
      m: 'matched',
      e: 'expand',
      p: 'matched',
      x: 'mismatch',
    };
    return {
      state: (pod) => state[at(pod)] ?? 'matched',
      ready: (pod) => at(pod) !== 'p', // a claim not raised yet is at its own size: ready
      resizeCompleted: (pod) => at(pod) === 'm',
    };
  };
  it.each([
    {
      name: 'an image change and a resize: the claims of the highest pod first, the pod waits',
      slots: 'r0 r0 r0',
      claims: 'eee',
      mu: 1,
      want: { specifiedDeletes: [], resizes: [2], updates: [] },
    },
    {
      name: 'resize only (pods at the update revision): claims resized one pod at a time',
      slots: 'r1 r1 r1',
      claims: 'eee',
      mu: 1,
      want: { specifiedDeletes: [], resizes: [2], updates: [] },
    },
    {
      name: 'a pending resize counts unavailable and holds the next pod',
      slots: 'r1 r1 r1',
      claims: 'eep',
      mu: 1,
      want: { specifiedDeletes: [], resizes: [], updates: [] },
    },
    {
      name: 'resize done: the pod is updated',
      slots: 'r0 r0 r0',
      claims: 'eem',
      mu: 1,
      want: { specifiedDeletes: [], resizes: [], updates: [2] },
    },
    {
      name: 'resize done on a pod at the update revision: nothing to update, the next claims are resized',
      slots: 'r1 r1 r1',
      claims: 'eem',
      mu: 1,
      want: { specifiedDeletes: [], resizes: [1], updates: [] },
    },
    {
      name: 'mu 3: the claims of every pod resized at once',
      slots: 'r0 r0 r0',
      claims: 'eee',
      mu: 3,
      want: { specifiedDeletes: [], resizes: [2, 1, 0], updates: [] },
    },
    {
      name: 'a claim that differs beyond its size stops the walk there',
      slots: 'r0 r0 r0',
      claims: 'mxm',
      mu: 3,
      want: { specifiedDeletes: [], resizes: [], updates: [2], mismatch: 1 },
    },
  ])('$name', ({ slots, claims, mu, want }) => {
    expect(round(slots, { partition: 0, mu, claims: view(claims) })).toEqual(want);
  });
});
