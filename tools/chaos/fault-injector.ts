// R1's fault injector (docs/reliability-checks.md, R1): walks a fault schedule (schedule.ts faultSchedule) on the suite's
// clock, each fault a kill -9 and a restart after its down time, and records each with the rollouts it came during.
import { setTimeout as sleep } from 'node:timers/promises';
import { fmt } from '../bench/common.js';
import type { Outage } from './programs.js';
import { rolloutsLabel } from './r1-parallel.js';
import type { Fault, FaultKind } from './schedule.js';
import type { World } from './world.js';

export interface Injected extends Outage {
  kind: FaultKind;
  /** The rollouts in their checked phase when the fault came (none: between rollouts; several: --r1-parallel). */
  rollouts: readonly number[];
}

/**
 * Starts injecting `faults` from now: `kill` does one (kill -9, restart after `downMs`, resolved once back);
 * `rollouts` names the rollouts in their checked phase (r1-parallel.ts InFlight). `stop` ends the walk after the
 * fault under way is over.
 */
export function startFaultInjector(
  w: World,
  faults: readonly Fault[],
  kill: (kind: FaultKind, downMs: number) => Promise<Outage>,
  rollouts: () => readonly number[],
): { injected: Injected[]; stop(): Promise<void> } {
  const injected: Injected[] = [];
  const t0 = w.now();
  let finished = false;
  const walk = (async () => {
    for (const f of faults) {
      while (!finished && w.now() - t0 < f.atMs) await sleep(200);
      if (finished) return;
      const during = rollouts();
      const outage = await kill(f.kind, f.downMs);
      injected.push({ ...outage, kind: f.kind, rollouts: during });
      w.log(
        `R1: ${f.kind} (down ${f.downMs} ms, back after ${fmt((outage.backAt - outage.at) / 1000)} s)${during.length === 0 ? '' : ` during ${rolloutsLabel(during)}`}`,
      );
    }
  })();
  return {
    injected,
    async stop() {
      finished = true;
      await walk;
    },
  };
}
