/** The Adaptive strategy's two durations (OpenKruise `GetRescheduleCriticalDuration`, `GetUnschedulableDuration`). */
import {
  DEFAULT_RESCHEDULE_CRITICAL_SECONDS,
  DEFAULT_UNSCHEDULABLE_DURATION_SECONDS,
  type UnitedDeploymentSpec,
} from '@regatta/api';

export interface AdaptiveTiming {
  /** How long a pod may stay unschedulable (Pending) before it counts as failed. */
  rescheduleCriticalMs: number;
  /** How long a subset stays unschedulable once marked (and, in reservation mode, how long a reserved pod must be Ready). */
  unschedulableMs: number;
}

export function adaptiveTiming(spec: UnitedDeploymentSpec): AdaptiveTiming {
  const a = spec.topology?.scheduleStrategy?.adaptive;
  return {
    rescheduleCriticalMs: (a?.rescheduleCriticalSeconds ?? DEFAULT_RESCHEDULE_CRITICAL_SECONDS) * 1000,
    unschedulableMs: (a?.unschedulableDuration ?? DEFAULT_UNSCHEDULABLE_DURATION_SECONDS) * 1000,
  };
}

/** The smallest positive duration (the controller requeues after it), or undefined. */
export function soonest(durations: Iterable<number>): number | undefined {
  let best: number | undefined;
  for (const d of durations) if (d > 0 && (best === undefined || d < best)) best = d;
  return best;
}
