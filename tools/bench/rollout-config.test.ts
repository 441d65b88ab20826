import { describe, expect, it } from 'vitest';
import {
  batchOf,
  cloneSetRollout,
  isRolloutTypeArg,
  parseRolloutType,
  RolloutArgsError,
  rolloutBoundS,
  watchesSettled,
} from './rollout-config.js';
import { daemonSetDone } from './rollout-ads.js';
import { statefulSetDone } from './rollout-asts.js';

describe('batchOf', () => {
  it.each([
    // maxUnavailable, N, roundUp, batch
    ['10%', 1000, false, 100],
    ['20%', 300, false, 60],
    ['20%', 30, false, 6],
    ['20%', 7, false, 1], // floor 1.4 → 1
    ['20%', 4, false, 1], // floor 0.8 → 0, at least 1
    ['20%', 50, true, 10],
    ['20%', 7, true, 2], // a DaemonSet rounds up: ceil 1.4 → 2
    [3, 50, false, 3],
    [0, 50, false, 1],
  ] as const)('%s of %i (round up %s) → %i', (mu, n, up, batch) => {
    expect(batchOf(mu, n, up)).toBe(batch);
  });
});

describe('rolloutBoundS', () => {
  it.each([
    // N, batch, t (ms), bound (s)
    [1000, 100, 5000, 50],
    [300, 60, 2000, 10],
    [300, 1, 2000, 600], // the native StatefulSet: N·t
    [50, 10, 5000, 25],
    [7, 2, 1000, 4], // the last batch is a partial one
  ])('N %i, batch %i, t %i ms → %i s', (n, batch, t, bound) => {
    expect(rolloutBoundS(n, batch, t)).toBe(bound);
  });
});

describe('done predicates', () => {
  const sts = (status: Record<string, unknown>) => ({ metadata: { generation: 2 }, status });
  it('a StatefulSet is done when the status caught up and every pod is at the update revision and ready', () => {
    const done = statefulSetDone(3);
    const all = {
      observedGeneration: 2,
      replicas: 3,
      readyReplicas: 3,
      updatedReplicas: 3,
      currentRevision: 'b',
      updateRevision: 'b',
    };
    expect(done(sts(all), 2)).toBe(true);
    expect(done(sts({ ...all, observedGeneration: 1 }), 2)).toBe(false);
    expect(done(sts({ ...all, currentRevision: 'a' }), 2)).toBe(false);
    expect(done(sts({ ...all, readyReplicas: 2 }), 2)).toBe(false);
    expect(done({ metadata: {} }, 1)).toBe(false);
  });
  it('a DaemonSet is done when every node runs an updated, available pod', () => {
    const done = daemonSetDone(5);
    const all = {
      observedGeneration: 2,
      desiredNumberScheduled: 5,
      currentNumberScheduled: 5,
      updatedNumberScheduled: 5,
      numberReady: 5,
      numberAvailable: 5,
    };
    expect(done(sts(all), 2)).toBe(true);
    expect(done(sts({ ...all, numberAvailable: 4 }), 2)).toBe(false);
    expect(done(sts({ ...all, updatedNumberScheduled: 4 }), 2)).toBe(false);
    expect(done(sts({ ...all, desiredNumberScheduled: 6 }), 2)).toBe(false);
  });
});

describe('watchesSettled', () => {
  it.each([
    // samples [ms, count], quiet ms, settled
    [[], 10, false],
    [[[0, 40]], 10, false], // one sample spans nothing
    [
      [
        [0, 40],
        [5, 40],
      ],
      10,
      false,
    ], // not yet 10 ms of samples
    [
      [
        [0, 40],
        [5, 40],
        [10, 40],
      ],
      10,
      true,
    ],
    [
      [
        [0, 40],
        [5, 49],
        [10, 49],
      ],
      10,
      false,
    ], // changed inside the window
    [
      [
        [0, 40],
        [5, 49],
        [10, 49],
        [15, 49],
      ],
      10,
      true,
    ],
    [
      [
        [0, 40],
        [3, 40],
        [6, 49],
        [13, 49],
      ],
      10,
      false,
    ], // the count the window started at (3 ms: 40) differs
    [
      [
        [0, 40],
        [5, 49],
        [10, 40],
        [20, 40],
      ],
      10,
      true,
    ], // settled back
  ] as const)('%j over %i ms → %s', (samples, quiet, want) => {
    expect(watchesSettled(samples, quiet)).toBe(want);
  });
});

describe('parseRolloutType', () => {
  it.each([
    // args, CloneSet update strategy type
    [[], 'InPlaceIfPossible'],
    [['--quick', '--rollout-pods=200'], 'InPlaceIfPossible'],
    [['--rollout-type=ReCreate'], 'ReCreate'],
    [['--rollout-type=InPlaceIfPossible'], 'InPlaceIfPossible'],
    [['--only=rollout', '--rollout-type=InPlaceOnly', '--quick'], 'InPlaceOnly'],
  ] as const)('%j → %s', (args, want) => {
    expect(parseRolloutType(args)).toBe(want);
  });

  it.each([
    [['--rollout-type=Recreate'], /wants one of ReCreate, InPlaceIfPossible, InPlaceOnly, got Recreate/], // a Deployment's
    [['--rollout-type=inplaceifpossible'], /got inplaceifpossible/], // case matters, as in the API
    [['--rollout-type='], /wants one of/],
    [['--rollout-type=ReCreate', '--rollout-type=InPlaceOnly'], /given 2 times/],
  ] as const)('%j is refused', (args, message) => {
    expect(() => parseRolloutType(args)).toThrow(RolloutArgsError);
    expect(() => parseRolloutType(args)).toThrow(message);
  });

  it('claims only its own flag', () => {
    expect(
      ['--rollout-type=ReCreate', '--rollout-pods=100', '--rollout-types', '--quick'].map(isRolloutTypeArg),
    ).toEqual([true, false, false, false]);
  });
});

describe('cloneSetRollout', () => {
  it.each([
    // type, label, how, writes goal per pod
    ['InPlaceIfPossible', 'CloneSet InPlaceIfPossible', 'in place', 2],
    ['InPlaceOnly', 'CloneSet InPlaceOnly', 'in place', 2],
    ['ReCreate', 'CloneSet ReCreate', 'recreate', 'native'], // issue 17: what the ReplicaSet controller's costs
  ] as const)('%s → %s, %s, goal %s', (type, label, how, goal) => {
    expect(cloneSetRollout(type)).toMatchObject({ type, label, how, writesGoalPerPod: goal });
  });

  it("says t is a new pod's start on both sides for a recreate, an in-place restart otherwise", () => {
    expect(cloneSetRollout('ReCreate').t).toBe("a new pod's start (both sides recreate their pods)");
    expect(cloneSetRollout('InPlaceOnly').t).toContain('in-place restart (CloneSet)');
  });
});
