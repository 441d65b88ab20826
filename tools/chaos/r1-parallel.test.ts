import { describe, expect, it } from 'vitest';
import { InFlight, inGroups, parallelFigure, rolloutsLabel, runGroup } from './r1-parallel.js';

describe('inGroups', () => {
  it.each([
    [[0, 1, 2, 3, 4, 5], 1, [[0], [1], [2], [3], [4], [5]]],
    [
      [0, 1, 2, 3, 4, 5],
      3,
      [
        [0, 1, 2],
        [3, 4, 5],
      ],
    ],
    [
      [0, 1, 2, 3, 4],
      3,
      [
        [0, 1, 2],
        [3, 4],
      ],
    ],
    [[0, 1], 5, [[0, 1]]],
    [[], 3, []],
  ])('%j by %i: %j', (plans, n, groups) => {
    expect(inGroups(plans, n)).toEqual(groups);
  });

  it.each([0, -1, 1.5])('refuses %d', (n) => {
    expect(() => inGroups([1], n)).toThrow(RangeError);
  });
});

describe('rolloutsLabel', () => {
  it.each([
    [[3], 'rollout 3'],
    [[3, 4, 5], 'rollouts 3, 4, 5'],
  ])('%j: %s', (indices, label) => {
    expect(rolloutsLabel(indices)).toBe(label);
  });
});

describe('InFlight', () => {
  it('holds each rollout from its change to its group’s end', () => {
    const f = new InFlight();
    expect(f.now()).toEqual([]);
    f.enter(4);
    f.enter(3);
    expect(f.now()).toEqual([3, 4]);
    f.enter(5);
    f.leave([3, 4, 5]);
    expect(f.now()).toEqual([]);
  });
});

describe('parallelFigure', () => {
  it('adds a row only when rollouts run at once', () => {
    expect(parallelFigure(1)).toEqual([]);
    expect(parallelFigure(3).map(([k]) => k)).toEqual(['rollouts at once']);
  });
});

describe('runGroup', () => {
  it('runs the plans at once and gives each result with its plan, in order', async () => {
    const started: number[] = [];
    const rs = await runGroup([3, 4, 5], async (p) => {
      started.push(p);
      await new Promise((r) => setTimeout(r, (6 - p) * 5)); // the last ends first
      return p * 10;
    });
    expect(started).toEqual([3, 4, 5]);
    expect(rs).toEqual([
      { plan: 3, r: 30 },
      { plan: 4, r: 40 },
      { plan: 5, r: 50 },
    ]);
  });

  it('waits for every rollout when one throws, then throws the first error', async () => {
    const ended: number[] = [];
    const run = runGroup([0, 1, 2], async (p) => {
      await new Promise((r) => setTimeout(r, p * 10));
      ended.push(p);
      if (p === 0) throw new Error('rollout 0 broke');
    });
    await expect(run).rejects.toThrow('rollout 0 broke');
    expect(ended).toEqual([0, 1, 2]);
  });
});
