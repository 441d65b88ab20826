// R1's API faults (docs/reliability-checks.md, R1, `--api-faults=p`), for both rows (r1.ts, r1-sidecarset.ts): for the row's
// time the proxy in front of the program under test breaks its requests at rate p and the watcher's link (its own
// proxy, api-proxy-watcher.ts) at min(0.5, 10 p); the row then prints what it met: the program's faults by kind, the
// watcher link's, and the watcher's lists and watches.
import { join } from 'node:path';
import { startApiProxy, type ApiProxy } from './api-proxy.js';
import { countBy } from './report.js';
import type { World } from './world.js';

/**
 * The watcher's link breaks this many times the program's share of requests (at most half): the watcher makes few,
 * a list and a long watch per kind, where a controller makes thousands.
 */
export const WATCHER_FAULT_FACTOR = 10;

/** The watcher link's fault rate for the programs' rate `p`. Pure. */
export const watcherFaultRate = (p: number): number => Math.min(0.5, WATCHER_FAULT_FACTOR * p);

/** What a row's proxies did while it ran (undefined: that proxy was not started, `--api-faults` off). */
export interface ApiFaultCounts {
  /** The program's proxy: its faults, at `rate`. */
  program: { rate: number; faults: readonly string[] } | undefined;
  /** The watcher's proxy: its faults, at `rate`, and the lists and watches it forwarded or broke. */
  watcher: { rate: number; faults: readonly string[]; lists: number; watches: number } | undefined;
}

/** The row's API-fault figures; `programs` names whose requests the program proxy broke. Pure. */
export function apiFaultFigures(programs: string, c: ApiFaultCounts): [string, string][] {
  const off = 'off (--api-faults)';
  return [
    [
      `API faults (${programs})`,
      c.program
        ? `${c.program.faults.length} at ${c.program.rate} per request: ${countBy(c.program.faults)}`
        : off,
    ],
    [
      "API faults (watcher's link)",
      c.watcher
        ? `${c.watcher.faults.length} (rate ${c.watcher.rate}, every watch cut): ${countBy(c.watcher.faults)}`
        : off,
    ],
    [
      "the watcher's lists / watches",
      c.watcher ? `${c.watcher.lists} / ${c.watcher.watches}` : 'n/a (no proxy)',
    ],
  ];
}

/** A row's API faults under way: `stop` ends them (plain forwarding again); `counts` is what they came to so far. */
export interface RowApiFaults {
  stop(): void;
  counts(): ApiFaultCounts;
}

/**
 * Raises `program` (the proxy in front of the row's program) to `rate` and `watcher` (the watcher's own) to
 * {@link watcherFaultRate}; counts from now on. Either proxy may be absent (`--api-faults` off).
 */
export function startRowApiFaults(
  program: ApiProxy | undefined,
  watcher: ApiProxy | undefined,
  rate: number,
): RowApiFaults {
  const wRate = watcherFaultRate(rate);
  const programBefore = program?.injected.length ?? 0;
  const watcherBefore = watcher?.injected.length ?? 0;
  const requestsBefore = { ...(watcher?.requests ?? { lists: 0, watches: 0 }) };
  if (program) program.rate = rate;
  if (watcher) watcher.rate = wRate;
  return {
    stop() {
      if (program) program.rate = 0;
      if (watcher) watcher.rate = 0;
    },
    counts: () => ({
      program: program && { rate, faults: program.injected.slice(programBefore) },
      watcher: watcher && {
        rate: wRate,
        faults: watcher.injected.slice(watcherBefore),
        lists: watcher.requests.lists - requestsBefore.lists,
        watches: watcher.requests.watches - requestsBefore.watches,
      },
    }),
  };
}

/**
 * A fault-injecting proxy of one program's own (rate 0 until a row raises it), for a row whose program under test
 * must not share the controllers' proxy (world.ts) with the others; its kubeconfig goes in the program's KUBECONFIG.
 */
export function startProgramProxy(w: World, program: string, seed: number): Promise<ApiProxy> {
  return startApiProxy(w.cluster, {
    rate: 0,
    seed,
    kubeconfig: join(w.cluster.dir, `kubeconfig-${program}-proxy`),
  });
}
