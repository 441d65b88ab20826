// What a program's event loop and garbage collector did over a phase of a benchmark, read from two scrapes of its
// /metrics (prom-client's default metrics, libs/kit bootstrap.ts): the event-loop delay histogram
// (perf_hooks.monitorEventLoopDelay) is reset at every scrape, so the scrape at a phase's end covers the phase alone;
// the GC durations are cumulative, so the phase's are the end's minus the start's.
import { metricSum } from './common.js';

export interface LoopFigures {
  /** How late the event loop ran its timers over the phase, ms. */
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
  /** Garbage collections over the phase (every kind), their total time, and how many took over 1 ms and 10 ms. */
  gcCount: number;
  gcMs: number;
  gcOver1Ms: number;
  gcOver10Ms: number;
  /** Of those, the full (mark-compact) collections and their total time: V8's `major` kind. */
  gcMajor: number;
  gcMajorMs: number;
}

const GC = 'nodejs_gc_duration_seconds';

/** The phase's figures from the scrape at its start and the one at its end. */
export function loopFigures(start: string, end: string): LoopFigures {
  const gauge = (name: string) => 1000 * metricSum(end, name).sum;
  const grew = (name: string, match: Record<string, string> = {}) =>
    metricSum(end, name, match).sum - metricSum(start, name, match).sum;
  const count = grew(`${GC}_count`);
  return {
    delayP50Ms: gauge('nodejs_eventloop_lag_p50_seconds'),
    delayP99Ms: gauge('nodejs_eventloop_lag_p99_seconds'),
    delayMaxMs: gauge('nodejs_eventloop_lag_max_seconds'),
    gcCount: count,
    gcMs: 1000 * grew(`${GC}_sum`),
    gcOver1Ms: count - grew(`${GC}_bucket`, { le: '0.001' }),
    gcOver10Ms: count - grew(`${GC}_bucket`, { le: '0.01' }),
    gcMajor: grew(`${GC}_count`, { kind: 'major' }),
    gcMajorMs: 1000 * grew(`${GC}_sum`, { kind: 'major' }),
  };
}
