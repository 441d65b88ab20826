import { describe, expect, it } from 'vitest';
import { batchOf, rolloutBoundS } from './rollout-config.js';
import { compareLatency, sidecarSetDone } from './sidecarset-figures.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('compareLatency', () => {
  it.each([
    // baseline, unselected, selected (ms samples) → ratios p50, added p99, goals met
    {
      what: 'the same samples everywhere',
      a: range(1, 100),
      b: range(1, 100),
      c: range(1, 100),
      unselectedP50: 1,
      addedP99: 0,
      goals: [true, true],
    },
    {
      what: 'selected pods 3 ms slower, unselected 5 % slower',
      a: range(1, 100).map((x) => x * 0.1), // p50 5, p99 9.9
      b: range(1, 100).map((x) => x * 0.105),
      c: range(1, 100).map((x) => x * 0.1 + 3),
      unselectedP50: 1.05,
      addedP99: 3,
      goals: [true, true],
    },
    {
      what: 'unselected 1.5× and selected +20 ms at p99',
      a: range(1, 100).map((x) => x * 0.1),
      b: range(1, 100).map((x) => x * 0.15),
      c: [...range(1, 98).map((x) => x * 0.1), 29.9, 30],
      unselectedP50: 1.5,
      addedP99: 20,
      goals: [false, false],
    },
  ])('$what', ({ a, b, c, unselectedP50, addedP99, goals }) => {
    const r = compareLatency(a, b, c);
    expect(r.unselectedRatio.p50).toBeCloseTo(unselectedP50, 6);
    expect(r.selectedAdded.p99).toBeCloseTo(addedP99, 6);
    expect([r.unselectedGoalMet, r.selectedGoalMet]).toEqual(goals);
  });

  it('nearest-rank percentiles of the pooled samples', () => {
    const r = compareLatency([4, 1, 3, 2], [2], [10]);
    expect([r.baseline.p50, r.baseline.p99, r.baseline.n]).toEqual([2, 4, 4]);
    expect(r.selectedRatio.p50).toBe(5);
  });

  it('no baseline gives no ratio', () => {
    expect(compareLatency([], [1], [1]).unselectedRatio.p50).toBeNaN();
  });
});

describe('the sidecar upgrade bound', () => {
  it.each([
    // N, maxUnavailable, t (ms), batch, bound (s)
    [500, '10%', 5000, 50, 50],
    [50, '10%', 2000, 5, 20],
    [45, '10%', 2000, 5, 18], // 4.5 rounds up to 5 (matched pods, libs/sidecarset)
    [7, '10%', 1000, 1, 7],
  ] as const)('N %i, maxUnavailable %s, t %i ms → batch %i, bound %i s', (n, mu, t, batch, bound) => {
    expect(batchOf(mu, n, true)).toBe(batch);
    expect(rolloutBoundS(n, batchOf(mu, n, true), t)).toBe(bound);
  });
});

describe('sidecarSetDone', () => {
  const set = (status: Record<string, unknown>) => ({ metadata: { generation: 2 }, status });
  const all = { observedGeneration: 2, matchedPods: 3, updatedPods: 3, readyPods: 3, updatedReadyPods: 3 };
  it.each([
    ['every matched pod updated and ready', all, true],
    ['the generation not observed yet', { ...all, observedGeneration: 1 }, false],
    ['a pod not updated', { ...all, updatedPods: 2, updatedReadyPods: 2 }, false],
    ['an updated pod not ready again', { ...all, readyPods: 2, updatedReadyPods: 2 }, false],
    ['fewer pods matched', { ...all, matchedPods: 2 }, false],
    ['no status', undefined, false],
  ] as const)('%s → %s', (_what, status, done) => {
    expect(sidecarSetDone(3)(set(status ?? {}), 2)).toBe(done);
  });
});
