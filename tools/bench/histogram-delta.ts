// A Prometheus histogram over one phase of a benchmark, from two scrapes of a /metrics text (the API server's, a
// program's): the phase's observations are the end's cumulative bucket counts minus the start's. Benchmark 8a reads
// with it how many of a phase's webhook calls the API server timed above each of its bucket bounds, and the same of
// the webhook server's own request times (docs/benchmarks-sidecarset.md section 8a).
import { metricSum } from './common.js';

export interface HistogramDelta {
  count: number;
  /** Seconds. */
  sum: number;
  /** Cumulative: observations at most `le` seconds, ascending, +Inf left out. */
  buckets: { le: number; count: number }[];
}

/** `name`'s observations between the `start` and `end` scrapes, over every series whose labels include `match`. */
export function histogramDelta(
  start: string,
  end: string,
  name: string,
  match: Record<string, string> = {},
): HistogramDelta {
  const grew = (suffix: string, m: Record<string, string> = {}) =>
    metricSum(end, `${name}${suffix}`, { ...match, ...m }).sum -
    metricSum(start, `${name}${suffix}`, { ...match, ...m }).sum;
  const bounds = new Set<string>();
  for (const line of metricSum(end, `${name}_bucket`, match).samples) {
    const le = /\ble="([^"]*)"/.exec(line)?.[1];
    if (le !== undefined && le !== '+Inf') bounds.add(le);
  }
  return {
    count: grew('_count'),
    sum: grew('_sum'),
    buckets: [...bounds]
      .map((le) => ({ le: Number(le), count: grew('_bucket', { le }) }))
      .sort((a, b) => a.le - b.le),
  };
}

/** Observations above `seconds` (a bucket bound of `h`; NaN when it is none). */
export function countOver(h: HistogramDelta, seconds: number): number {
  const b = h.buckets.find((x) => Math.abs(x.le - seconds) < 1e-12);
  return b ? h.count - b.count : NaN;
}
