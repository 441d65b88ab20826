import { describe, expect, it } from 'vitest';
import { loopFigures } from './program-loop.js';

const scrape = (o: { lagMax: number; minor: [number, number, number, number]; major?: number }) =>
  [
    '# HELP nodejs_eventloop_lag_max_seconds The maximum recorded event loop delay.',
    `nodejs_eventloop_lag_max_seconds ${o.lagMax}`,
    'nodejs_eventloop_lag_p50_seconds 0.0101',
    'nodejs_eventloop_lag_p99_seconds 0.0125',
    // minor: [≤ 1 ms, ≤ 10 ms, count, sum]; major: `major` collections (default 1) of 20 ms each
    `nodejs_gc_duration_seconds_bucket{le="0.001",kind="minor"} ${o.minor[0]}`,
    `nodejs_gc_duration_seconds_bucket{le="0.01",kind="minor"} ${o.minor[1]}`,
    `nodejs_gc_duration_seconds_sum{kind="minor"} ${o.minor[3]}`,
    `nodejs_gc_duration_seconds_count{kind="minor"} ${o.minor[2]}`,
    'nodejs_gc_duration_seconds_bucket{le="0.001",kind="major"} 0',
    'nodejs_gc_duration_seconds_bucket{le="0.01",kind="major"} 0',
    `nodejs_gc_duration_seconds_sum{kind="major"} ${0.02 * (o.major ?? 1)}`,
    `nodejs_gc_duration_seconds_count{kind="major"} ${o.major ?? 1}`,
  ].join('\n');

describe('loopFigures: a program over one phase of a benchmark', () => {
  const start = scrape({ lagMax: 0.5, minor: [10, 12, 12, 0.008] });
  const end = scrape({ lagMax: 0.0301, minor: [14, 19, 20, 0.058] });
  const f = loopFigures(start, end);

  it('takes the event-loop delay from the end scrape alone (the histogram is reset at each scrape)', () => {
    expect(f.delayMaxMs).toBeCloseTo(30.1);
    expect(f.delayP50Ms).toBeCloseTo(10.1);
    expect(f.delayP99Ms).toBeCloseTo(12.5);
  });

  it('counts the collections of the phase: the end minus the start, over every kind', () => {
    expect(f.gcCount).toBe(8);
    expect(f.gcMs).toBeCloseTo(50);
    expect(f.gcOver1Ms).toBe(4); // 8 − (14 − 10) within 1 ms
    expect(f.gcOver10Ms).toBe(1); // 8 − (19 − 12) within 10 ms
    expect(f.gcMajor).toBe(0);
  });

  it('counts the full collections apart, with their time', () => {
    const g = loopFigures(start, scrape({ lagMax: 0.03, minor: [10, 12, 12, 0.008], major: 4 }));
    expect(g.gcMajor).toBe(3);
    expect(g.gcMajorMs).toBeCloseTo(60);
  });
});
