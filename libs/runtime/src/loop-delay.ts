import { monitorEventLoopDelay } from 'node:perf_hooks';

/** How long this process's event loop was held, at most, since the last reset (libuv's timer lateness, ms). */
export interface LoopDelay {
  maxMs(): number;
  reset(): void;
  stop(): void;
}

/**
 * A sampler of the event loop's delay (Node's `monitorEventLoopDelay`, 20 ms resolution): the leader elector reads
 * it per renew round, so a slow renewal says whether the process itself was held (a long synchronous stretch) or the
 * answer was slow to come (docs/reliability-findings-1-16.md finding 4).
 */
export function startLoopDelay(): LoopDelay {
  const h = monitorEventLoopDelay({ resolution: 20 });
  h.enable();
  return {
    // the histogram records in ns; with no sample yet its max is 0
    maxMs: () => h.max / 1e6,
    reset: () => h.reset(),
    stop: () => h.disable(),
  };
}
