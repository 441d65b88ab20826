// R1's fault injector (docs/reliability.md, R1): walks a fault schedule (schedule.ts faultSchedule) on the suite's
// clock, each fault a kill -9 and a restart after its down time, and records each with the rollout it came during.
import { setTimeout as sleep } from 'node:timers/promises';
import { fmt } from '../bench/common.js';
import type { Outage } from './programs.js';
import type { Fault, FaultKind } from './schedule.js';
import type { World } from './world.js';

export interface Injected extends Outage {
  kind: FaultKind;
  /** The rollout in its checked phase when the fault came, if any. */
  rollout: number | undefined;
}

/**
 * Starts injecting `faults` from now: `kill` does one (kill -9, restart after `downMs`, resolved once back);
 * `rollout` names the rollout in its checked phase. `stop` ends the walk after the fault under way is over.
 */
export function startFaultInjector(
  w: World,
  faults: readonly Fault[],
  kill: (kind: FaultKind, downMs: number) => Promise<Outage>,
  rollout: () => number | undefined,
): { injected: Injected[]; stop(): Promise<void> } {
  const injected: Injected[] = [];
  const t0 = w.now();
  let finished = false;
  const walk = (async () => {
    for (const f of faults) {
      while (!finished && w.now() - t0 < f.atMs) await sleep(200);
      if (finished) return;
      const during = rollout();
      const outage = await kill(f.kind, f.downMs);
      injected.push({ ...outage, kind: f.kind, rollout: during });
      w.log(
        `R1: ${f.kind} (down ${f.downMs} ms, back after ${fmt((outage.backAt - outage.at) / 1000)} s)${during === undefined ? '' : ` during rollout ${during}`}`,
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
