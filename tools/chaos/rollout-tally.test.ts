import { describe, expect, it } from 'vitest';
import type { Injected } from './fault-injector.js';
import { RolloutTally } from './rollout-tally.js';

const fault = (rollout: number | undefined, at: number, backAt: number): Injected => ({
  kind: 'kill-controller',
  rollout,
  at,
  backAt,
});

describe('RolloutTally', () => {
  it('labels violations, counts completions, keeps the fewest margin and the recoveries of each rollout’s faults', () => {
    const t = new RolloutTally();
    const injected = [fault(0, 1000, 3000), fault(1, 20_000, 21_000), fault(undefined, 9000, 9500)];
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

  it('has no figures before a rollout', () => {
    expect(new RolloutTally().timeFigures().map(([, v]) => v)).toEqual(['n/a', 'n/a', 'n/a']);
  });
});
