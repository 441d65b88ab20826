import { describe, expect, it } from 'vitest';
import type { Pod, UnitedDeploymentCondition } from '@regatta/api';
import { toRfc3339 } from '@regatta/kube';
import {
  checkPodReserved,
  conditionsAfterReservedAllocation,
  reservedSubsetState,
} from './reserved-status.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const ago = (s: number) => toRfc3339(NOW - s * 1000);
const REV = 'ud-v2';

interface PodOpts {
  created?: number;
  label?: 'true' | 'false';
  revision?: string;
  pending?: boolean;
  readyFor?: number;
  deleting?: boolean;
}

function pod({ created = 100, label, revision = REV, pending, readyFor, deleting }: PodOpts): Pod {
  return {
    metadata: {
      name: 'p',
      creationTimestamp: ago(created),
      ...(deleting && { deletionTimestamp: ago(0) }),
      labels: {
        'apps.kruise.io/controller-revision-hash': revision,
        ...(label && { 'apps.kruise.io/united-deployment-reserved-pod': label }),
      },
    },
    spec: pending ? {} : { nodeName: 'n1' },
    status: pending
      ? { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] }
      : {
          phase: 'Running',
          conditions:
            readyFor === undefined
              ? []
              : [{ type: 'Ready', status: 'True', lastTransitionTime: ago(readyFor) }],
        },
  };
}

const updating = (forSeconds: number): UnitedDeploymentCondition => ({
  type: 'UnitedDeploymentUpdated',
  status: 'False',
  reason: 'UnitedDeploymentRevisionUpdating',
  lastTransitionTime: ago(forSeconds),
});

describe('checkPodReserved (spec §6.7 TestCheckPodReserved: pendingTimeout 10 s, minReady 5 s)', () => {
  const timing = { rescheduleCriticalMs: 10_000, unschedulableMs: 5_000 };
  it.each([
    ['not labelled, pending for 3 s', pod({ created: 3, pending: true }), undefined, [false, 7_000, false]],
    ['not labelled, pending for 11 s', pod({ created: 11, pending: true }), undefined, [true, 5_000, false]],
    ['not labelled, running and ready', pod({ readyFor: 20 }), undefined, [false, -1, false]],
    ['reserved, still pending', pod({ label: 'true', pending: true }), undefined, [true, 5_000, false]],
    ['reserved, ready for 3 s', pod({ label: 'true', readyFor: 3 }), undefined, [true, 2_000, false]],
    ['reserved, ready for 6 s', pod({ label: 'true', readyFor: 6 }), undefined, [false, -1, false]],
    [
      'not reserved, old revision, updating for 11 s',
      pod({ label: 'false', revision: 'ud-v1', readyFor: 20 }),
      updating(11),
      [true, 5_000, true],
    ],
    [
      'not labelled, old revision, updating for 4 s',
      pod({ revision: 'ud-v1', readyFor: 20 }),
      updating(4),
      [false, 6_000, false],
    ],
    ['deleting', pod({ revision: 'ud-v1', deleting: true }), updating(20), [false, -1, false]],
  ] as const)('%s', (_name, p, cond, [reserved, next, updateTimedOut]) => {
    expect(checkPodReserved(p, { updatedRevision: REV, updatedCondition: cond, timing, now: NOW })).toEqual({
      reserved,
      nextCheckAfterMs: next,
      updateTimedOut,
    });
  });
});

describe('reservedSubsetState (spec §6.7 TestCalculateSubsetsStatusForReservedAdaptiveStrategy: critical 10 s, unschedulable 30 s)', () => {
  const timing = { rescheduleCriticalMs: 10_000, unschedulableMs: 30_000 };
  const ctx = { updatedRevision: REV, timing, now: NOW };
  const marked = [{ type: 'Schedulable', status: 'False', reason: 'reschedule', lastTransitionTime: ago(5) }];

  it.each([
    ['created 1 s ago, pending, no label', undefined, pod({ created: 1, pending: true }), 0, 9_000, [false]],
    [
      'created 8 s ago, ready 5 s, label false',
      undefined,
      pod({ created: 8, readyFor: 5, label: 'false' }),
      0,
      undefined,
      [],
    ],
    [
      'created 13 s ago, pending, label false',
      undefined,
      pod({ created: 13, pending: true, label: 'false' }),
      1,
      30_000,
      [true],
    ],
    ['label true, ready for 10 s', undefined, pod({ label: 'true', readyFor: 10 }), 1, 20_000, []],
    ['label true, ready for 35 s', undefined, pod({ label: 'true', readyFor: 35 }), 0, undefined, [false]],
    [
      'subset already marked, new pod without label',
      marked,
      pod({ created: 1, pending: true }),
      1,
      undefined,
      [true],
    ],
  ] as const)('%s', (_name, conditions, p, reservedPods, requeue, labels) => {
    const s = reservedSubsetState({ conditions, pods: [p] }, ctx);
    expect(s.reservedPods).toBe(reservedPods);
    expect(s.unschedulable).toBe(reservedPods > 0);
    expect(s.requeueAfterMs).toBe(requeue);
    expect(s.podsToLabel.map((x) => x.reserved)).toEqual(labels);
    expect(s.conditions).toEqual([
      reservedPods > 0
        ? {
            type: 'Schedulable',
            status: 'False',
            reason: 'reschedule',
            lastTransitionTime: conditions ? ago(5) : ago(0),
            ...(!conditions && { message: 'reserved pods found' }),
          }
        : {
            type: 'Schedulable',
            status: 'True',
            reason: 'reschedule',
            message: 'no reserved pods',
            lastTransitionTime: ago(0),
          },
    ]);
  });
});

describe('conditionsAfterReservedAllocation (spec §6.7 TestPostProcessSubsetStatusForReservedAdaptiveStrategy)', () => {
  const recovered = {
    unschedulable: false,
    markedAsUnschedulable: true,
    conditions: [
      {
        type: 'Schedulable',
        status: 'True',
        reason: 'reschedule',
        message: 'no reserved pods',
        lastTransitionTime: ago(10),
      },
    ],
  };
  it.each([
    [10, 10, 'True'],
    [10, 15, 'False'],
    [15, 10, 'True'],
  ])('replicas %i → %i: Schedulable %s', (from, to, status) => {
    const c = conditionsAfterReservedAllocation(recovered, from, to, NOW);
    expect(c[0]?.status).toBe(status);
    if (status === 'False') expect(c[0]?.message).toBe('subset just recovered scaled up');
  });
});
