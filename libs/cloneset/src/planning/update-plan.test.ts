import { LIFECYCLE_STATE_KEY, type Pod } from '@regatta/lifecycle';
import { describe, expect, it } from 'vitest';
import {
  isCloneSetPodAvailable,
  type CloneSetRolloutSpec,
  type CloneSetUpdateStrategy,
  sortUpdateIndexes,
} from '@regatta/rollout';
import { calculateDiffsWithExpectation } from './diff.js';
import { limitUpdateIndexes, planUpdate, updateCandidates } from './update-plan.js';

const now = new Date('2024-05-01T12:00:00Z');
const available = (p: Pod) => isCloneSetPodAvailable(p, 0, now);
const ready = (): Pod => ({ status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
const unavailable = (): Pod => ({});

// TestCalculateUpdateCount (`pkg/controller/cloneset/sync/cloneset_update_test.go`): 16 rows; "r" = Running+Ready, "-" = unavailable
describe('limitUpdateIndexes (TestCalculateUpdateCount)', () => {
  const rows: [number, CloneSetUpdateStrategy, number[], string, number][] = [
    [3, {}, [0, 1, 2], 'r r r', 1],
    [3, {}, [0, 1, 2], 'r - r', 0],
    [3, {}, [0, 1, 2], '- r r', 1],
    [10, {}, [0, 1, 2, 3, 4, 5, 6, 7, 8], '- r r r r r r r - r', 1],
    [3, { partition: 2, maxUnavailable: 3 }, [0, 1], '- r r', 0],
    [8, { partition: 2, maxUnavailable: 3 }, [0, 1, 2, 3, 4, 5, 6], 'r r r r r r r r', 3],
    [5, { partition: 0, maxUnavailable: 2 }, [0, 1, 2, 3, 4], '- - - - -', 2],
    [5, { partition: 0, maxUnavailable: 2 }, [0, 1, 2], '- - - - -', 0],
    [5, { partition: 0, maxUnavailable: 2 }, [0, 1, 2], '- - - r -', 1],
    [5, { partition: 0, maxUnavailable: 2, maxSurge: 1 }, [0, 1, 2, 3, 4], '- - - - - -', 2],
    [5, { partition: 0, maxUnavailable: 2, maxSurge: 1 }, [0, 1, 2, 3], '- - - - r -', 2],
    [5, { partition: 0, maxUnavailable: 2, maxSurge: 1 }, [0, 1, 2], '- - - - r -', 1],
    [5, { partition: 0, maxUnavailable: 2, maxSurge: 1 }, [0, 1, 2], '- - - - - -', 0],
    [8, { partition: 7, maxUnavailable: 3 }, [0, 1, 2], 'r r r - - - - -', 3],
    [4, { maxUnavailable: 2, maxSurge: 1 }, [0, 1], 'r r r r r', 1],
    [4, { maxUnavailable: 2, maxSurge: 1 }, [0, 1, 2, 3], 'r r r r r r', 2],
  ];
  it.each(rows)('replicas %i, %j, old %j, pods %s → %i', (replicas, strategy, oldIdx, podsSpec, expected) => {
    const pods = podsSpec.split(' ').map((s, i) => {
      const p = s === 'r' ? ready() : unavailable();
      p.metadata = { labels: { 'controller-revision-hash': oldIdx.includes(i) ? 'current' : 'updated' } };
      return p;
    });
    const spec: CloneSetRolloutSpec = { replicas, updateStrategy: strategy };
    const diffs = calculateDiffsWithExpectation(spec, pods, 'current', 'updated', {
      now,
      partitionRollback: true,
    });
    const newIdx = pods.map((_, i) => i).filter((i) => !oldIdx.includes(i));
    const [wait, target] =
      diffs.updateNum > 0 ? [oldIdx, 'updated'] : diffs.updateNum < 0 ? [newIdx, 'current'] : [[], ''];
    expect(limitUpdateIndexes(pods, wait, diffs, target, available)).toHaveLength(expected);
  });
});

// TestSortUpdateIndexes
describe('sortUpdateIndexes', () => {
  const pod = (phase: string, isReady: boolean): Pod => ({
    status: { phase, conditions: [{ type: 'Ready', status: isReady ? 'True' : 'False' }] },
  });
  it('orders not-ready before ready and Pending before Running', () => {
    const pods = [
      pod('Pending', true),
      pod('Pending', false),
      pod('Pending', false),
      pod('Running', true),
      pod('Running', false),
    ];
    expect(sortUpdateIndexes(pods, [0, 1, 3, 4], undefined)).toEqual([1, 0, 4, 3]);
  });
  it('puts PreparingUpdate pods first, keeping the rest of the order', () => {
    const pods = [
      pod('Running', false),
      pod('Running', true),
      { ...pod('Running', true), metadata: { labels: { [LIFECYCLE_STATE_KEY]: 'PreparingUpdate' } } },
    ];
    expect(sortUpdateIndexes(pods, [0, 1, 2], undefined)).toEqual([2, 0, 1]);
  });
  it('applies the priority strategy after the base order', () => {
    const pods = ['a', 'b', 'c'].map(
      (n, i): Pod => ({
        metadata: { name: n, labels: { order: `o-${i}` } },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
      }),
    );
    expect(
      sortUpdateIndexes(pods, [0, 1, 2], { priorityStrategy: { orderPriority: [{ orderedKey: 'order' }] } }),
    ).toEqual([2, 1, 0]);
  });
});

describe('updateCandidates', () => {
  const pod = (rev: string, state = 'Normal', grace = false): Pod => ({
    metadata: {
      labels: { 'controller-revision-hash': rev, [LIFECYCLE_STATE_KEY]: state },
      ...(grace ? { annotations: { 'apps.kruise.io/inplace-update-grace': '{"revision":"x"}' } } : {}),
    },
  });
  const pods = [
    pod('old'),
    pod('new'),
    pod('old', 'PreparingDelete'),
    pod('old', 'Normal', true),
    pod('old', 'Updated', true),
  ];
  it('takes pods not at the update revision, except PreparingDelete and those in a grace period (Updated ones are taken)', () => {
    expect(updateCandidates(pods, 'new', 2)).toEqual([0, 4]);
  });
  it('takes pods at the update revision for a rollback', () => {
    expect(updateCandidates(pods, 'new', -1)).toEqual([1]);
  });
});

describe('planUpdate', () => {
  const pods = Array.from(
    { length: 5 },
    (_, i): Pod => ({
      metadata: {
        name: `p${i}`,
        labels: { 'controller-revision-hash': 'old', [LIFECYCLE_STATE_KEY]: 'Normal' },
      },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    }),
  );
  it('selects maxUnavailable pods towards the update revision', () => {
    const plan = planUpdate(
      { replicas: 5, updateStrategy: { type: 'ReCreate', maxUnavailable: 1 } },
      pods,
      'old',
      'new',
      { now },
    );
    expect(plan?.target).toBe('update');
    expect(plan?.targetRevision).toBe('new');
    expect(plan?.pods).toHaveLength(1);
  });
  it('does nothing for OnDelete, paused, or nothing to update', () => {
    expect(
      planUpdate({ replicas: 5, updateStrategy: { type: 'OnDelete' } }, pods, 'old', 'new', { now }),
    ).toBeUndefined();
    expect(
      planUpdate({ replicas: 5, updateStrategy: { paused: true } }, pods, 'old', 'new', { now }),
    ).toBeUndefined();
    expect(planUpdate({ replicas: 5, updateStrategy: {} }, pods, 'old', 'old', { now })).toBeUndefined();
  });
});
