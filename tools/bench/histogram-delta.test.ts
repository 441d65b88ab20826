import { describe, expect, it } from 'vitest';
import { countOver, histogramDelta } from './histogram-delta.js';

const NAME = 'apiserver_admission_webhook_admission_duration_seconds';
/** Two series (CREATE and UPDATE), each with buckets 5 ms and 25 ms: [≤ 5 ms, ≤ 25 ms, count, sum]. */
const scrape = (create: [number, number, number, number], update: [number, number, number, number]) =>
  [create, update]
    .flatMap(([b5, b25, count, sum], i) => {
      const labels = `name="pods.regatta",operation="${i === 0 ? 'CREATE' : 'UPDATE'}",type="admit"`;
      return [
        `${NAME}_bucket{${labels},le="0.005"} ${b5}`,
        `${NAME}_bucket{${labels},le="0.025"} ${b25}`,
        `${NAME}_bucket{${labels},le="+Inf"} ${count}`,
        `${NAME}_sum{${labels}} ${sum}`,
        `${NAME}_count{${labels}} ${count}`,
      ];
    })
    .join('\n');

describe('histogramDelta: one phase of a histogram from two scrapes', () => {
  const start = scrape([10, 12, 13, 0.1], [1, 1, 1, 0.001]);
  const end = scrape([300, 308, 310, 0.9], [5, 5, 5, 0.005]);

  it('takes the end minus the start, per bucket, for the series that match', () => {
    const h = histogramDelta(start, end, NAME, { operation: 'CREATE' });
    expect(h.count).toBe(297);
    expect(h.sum).toBeCloseTo(0.8);
    expect(h.buckets).toEqual([
      { le: 0.005, count: 290 },
      { le: 0.025, count: 296 },
    ]);
    expect(countOver(h, 0.005)).toBe(7);
    expect(countOver(h, 0.025)).toBe(1);
  });

  it('adds up every matching series, and says NaN for a bound that is no bucket', () => {
    const h = histogramDelta(start, end, NAME);
    expect(h.count).toBe(301);
    expect(countOver(h, 0.005)).toBe(7);
    expect(countOver(h, 0.01)).toBeNaN();
  });

  it('is empty when the metric is absent', () => {
    expect(histogramDelta('', '', NAME)).toEqual({ count: 0, sum: 0, buckets: [] });
  });
});
