// R1's tally over its rollouts (r1.ts, r1-sidecarset.ts): each rollout's violations under its label, whether and how
// fast it completed, its margin on maxUnavailable, and the recovery times of the faults that came during it. Pure.
import { recoveryTimes, type Violation } from './checker.js';
import type { Injected } from './fault-injector.js';
import { medianMax } from './report.js';

/** What one checked rollout came to (the caller's clock, ms). */
export interface RolloutOutcome {
  violations: Violation[];
  /** When a controller acted on a pod (InvariantChecker.actions). */
  actions: readonly number[];
  changeAt: number;
  doneAt: number | undefined;
  /** Fewest available minus the fewest allowed: 0 when the rollout used its whole budget. */
  margin: number;
}

export class RolloutTally {
  readonly violations: Violation[] = [];
  private readonly recoveries: number[] = [];
  private readonly durations: number[] = [];
  private readonly margins: number[] = [];
  private completed = 0;

  /**
   * Rollout `index` (`label`: what it was, prefixed to its violations); `injected`: the run's faults so far. With
   * rollouts in parallel a fault during several counts for each: its recovery measured on that rollout's own pods.
   */
  add(index: number, label: string, r: RolloutOutcome, injected: readonly Injected[]): void {
    this.violations.push(
      ...r.violations.map((v) => ({ ...v, detail: `rollout ${index} (${label}): ${v.detail}` })),
    );
    this.margins.push(r.margin);
    if (r.doneAt !== undefined) {
      this.completed++;
      this.durations.push(r.doneAt - r.changeAt);
    }
    const mine = injected.filter((f) => f.rollouts.includes(index));
    for (const t of recoveryTimes(mine, r.actions, r.doneAt)) if (t !== undefined) this.recoveries.push(t);
  }

  completedFigure(planned: number): [string, string] {
    return ['rollouts completed', `${this.completed}/${planned}`];
  }

  /** Faults injected, and how many came while a rollout was checked (each counted once however many were). */
  static faultsFigure(injected: readonly Injected[]): [string, string] {
    return [
      'faults injected',
      `${injected.length} (${injected.filter((f) => f.rollouts.length > 0).length} mid-rollout)`,
    ];
  }

  /** Durations, recoveries and the fewest margin, as the table prints them. */
  timeFigures(): [string, string][] {
    return [
      ['rollout duration, median / max', medianMax(this.durations)],
      ['time to recover, median / max', medianMax(this.recoveries)],
      [
        'available above the minimum, fewest',
        this.margins.length ? `${Math.min(...this.margins)} pods` : 'n/a',
      ],
    ];
  }
}
