import { describe, expect, it } from 'vitest';
import type { Injected } from './fault-injector.js';
import { RolloutTally } from './rollout-tally.js';

const fault = (rollouts: number[], at: number, backAt: number): Injected => ({
  kind: 'kill-controller',
  rollouts,
  at,
  backAt,
});

describe('RolloutTally', () => {
  it('labels violations, counts completions, keeps the fewest margin and the recoveries of each rollout’s faults', () => {
    const t = new RolloutTally();
    const injected = [fault([0], 1000, 3000), fault([1], 20_000, 21_000), fault([], 9000, 9500)];
    t.add(
      0,
      'in-place, 10 pods',
      {
        violations: [{ kind: 'unavailable', at: 1, count: 2, detail: '8 available' }],
        actions: [500, 3500],
        changeAt: 0,
        doneAt: 8000,
        margin: 1,
      },
      injected,
    );
    t.add(
      1,
      'scale, 12 pods',
      { violations: [], actions: [], changeAt: 10_000, doneAt: undefined, margin: 0 },
      injected,
    );
    expect(t.violations.map((v) => v.detail)).toEqual(['rollout 0 (in-place, 10 pods): 8 available']);
    expect(t.completedFigure(2)).toEqual(['rollouts completed', '1/2']);
    // rollout 0: its fault recovered at the first action after it was back (3500 − 1000); rollout 1's never did
    expect(t.timeFigures()).toEqual([
      ['rollout duration, median / max', '8.0 s / 8.0 s'],
      ['time to recover, median / max', '2.5 s / 2.5 s'],
      ['available above the minimum, fewest', '0 pods'],
    ]);
  });

  it('with rollouts overlapping, counts a fault during several once, and its recovery on each one’s own pods', () => {
    const t = new RolloutTally();
    // rollouts 3, 4, 5 at once: the first kill during all three (back at 2000), the second during 4 only
    const injected = [fault([3, 4, 5], 1000, 2000), fault([4], 30_000, 31_000), fault([], 50_000, 51_000)];
    const outcome = (actions: number[], doneAt: number | undefined, violations = 0) => ({
      violations: Array.from({ length: violations }, () => ({
        kind: 'unavailable' as const,
        at: 1,
        count: 1,
        detail: 'too few',
      })),
      actions,
      changeAt: 0,
      doneAt,
      margin: 0,
    });
    t.add(3, 'a', outcome([2500], 10_000), injected); // recovered at 2500
    t.add(4, 'b', outcome([5000, 33_000], 40_000, 1), injected); // 5000, then 33_000 − 30_000
    t.add(5, 'c', outcome([], 9000), injected); // no action after: its end
    // the violation is rollout 4's only
    expect(t.violations.map((v) => v.detail)).toEqual(['rollout 4 (b): too few']);
    expect(t.completedFigure(3)).toEqual(['rollouts completed', '3/3']);
    expect(t.timeFigures()[1]).toEqual(['time to recover, median / max', '3.0 s / 8.0 s']);
    expect(RolloutTally.faultsFigure(injected)).toEqual(['faults injected', '3 (2 mid-rollout)']);
  });

  it('has no figures before a rollout', () => {
    expect(new RolloutTally().timeFigures().map(([, v]) => v)).toEqual(['n/a', 'n/a', 'n/a']);
  });
});
