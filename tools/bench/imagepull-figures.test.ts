import { describe, expect, it } from 'vitest';
import { cadenceExcessS, median, overBound, pullBoundS, pullWaves, sumFinite } from './imagepull-figures.js';

describe('pullBoundS', () => {
  it.each([
    // N, p, t (ms), waves, bound (s)
    [50, 10, 5000, 5, 25],
    [10, 10, 2000, 1, 2],
    [51, 10, 5000, 6, 30], // the last wave is a partial one
    [7, 1, 1000, 7, 7], // the default parallelism of 1: N·t
    [5, 10, 5000, 1, 5], // fewer nodes than the parallelism
    [0, 10, 5000, 0, 0],
    [3, 0, 1000, 3, 3], // parallelism below 1 counts as 1
  ] as const)('N %i, p %i, t %i ms → %i waves, %f s', (n, p, t, waves, bound) => {
    expect(pullWaves(n, p)).toBe(waves);
    expect(pullBoundS(n, p, t)).toBe(bound);
  });
});

describe('overBound', () => {
  it.each([
    [27.5, 25, 1.1],
    [25, 25, 1],
    [45, 25, 1.8],
    [undefined, 25, undefined], // not done
    [10, 0, undefined],
    [Number.NaN, 25, undefined],
  ] as const)('%s / %s → %s', (d, b, r) => {
    const got = overBound(d, b);
    if (r === undefined) expect(got).toBeUndefined();
    else expect(got).toBeCloseTo(r, 10);
  });
});

describe('cadenceExcessS', () => {
  it.each([
    [50, 10, [0, 20, 25]], // ADR 0041: about +20 s at parallelism 10
    [50, 1, [0, 200, 250]], // and about +200 s at parallelism 1
    [10, 10, [0, 4, 5]],
  ] as const)('N %i, p %i → %j s', (n, p, want) => {
    expect(cadenceExcessS(n, p)).toEqual(want);
  });
});

describe('median and sumFinite', () => {
  it.each([
    [[3, 1, 2], 2, 6, 3],
    [[4, 1, 3, 2], 2.5, 10, 4],
    [[5, Number.NaN], 5, 5, 1], // a gone agent reads NaN
    [[], Number.NaN, 0, 0],
  ] as const)('%j → median %f, sum %f over %i', (xs, m, sum, n) => {
    expect(median([...xs])).toEqual(m);
    expect(sumFinite([...xs])).toEqual({ sum, n });
  });
});
