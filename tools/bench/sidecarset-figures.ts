// The SidecarSet benchmarks' pure pieces (issue 12, docs/benchmarks-sidecarset.md section 8a and
// docs/benchmarks-sidecarset-upgrade.md section 8b): the latency comparison of the three pod-creation phases
// against the goals, and when a SidecarSet's status says its sidecar upgrade is done.
import type { SidecarSetStatus } from '@regatta/api';
import type { KubeObject } from '@regatta/kube';
import { summarize, type Summary } from './common.js';

/** The issue's goals: unselected pods as fast as with no webhook, selected pods' p99 at most 5 ms slower. */
export const UNSELECTED_RATIO_GOAL = 1.0;
/** A ratio this close to 1 counts as 1.0× (two runs of the same baseline differ by more on two shared cores). */
export const RATIO_TOLERANCE = 0.1;
export const SELECTED_ADDED_P99_GOAL_MS = 5;

export interface LatencyComparison {
  baseline: Summary;
  unselected: Summary;
  selected: Summary;
  /** unselected / baseline and selected / baseline, at p50 and p99. */
  unselectedRatio: { p50: number; p99: number };
  selectedRatio: { p50: number; p99: number };
  /** selected − baseline, ms. */
  selectedAdded: { p50: number; p99: number };
  unselectedGoalMet: boolean;
  selectedGoalMet: boolean;
}

/** The three phases' create-call latencies (ms) compared with each other and with the goals. */
export function compareLatency(
  baseline: number[],
  unselected: number[],
  selected: number[],
): LatencyComparison {
  const a = summarize(baseline);
  const b = summarize(unselected);
  const c = summarize(selected);
  const r = (x: number, y: number) => (y > 0 ? x / y : NaN);
  const unselectedRatio = { p50: r(b.p50, a.p50), p99: r(b.p99, a.p99) };
  return {
    baseline: a,
    unselected: b,
    selected: c,
    unselectedRatio,
    selectedRatio: { p50: r(c.p50, a.p50), p99: r(c.p99, a.p99) },
    selectedAdded: { p50: c.p50 - a.p50, p99: c.p99 - a.p99 },
    // nearest-rank percentiles of a few hundred samples: p50 is the steadier figure to hold to 1.0×
    unselectedGoalMet: unselectedRatio.p50 <= UNSELECTED_RATIO_GOAL + RATIO_TOLERANCE,
    selectedGoalMet: c.p99 - a.p99 <= SELECTED_ADDED_P99_GOAL_MS,
  };
}

/** A SidecarSet's status as read from the API server (any field may be missing before the first write). */
type StatusView = Partial<SidecarSetStatus>;

/** The status says the generation is observed and all `n` matched pods run its sidecars and are ready. */
export const sidecarSetDone =
  (n: number) =>
  (o: KubeObject, generation: number): boolean => {
    const s = (o as KubeObject & { status?: StatusView }).status;
    return (
      (s?.observedGeneration ?? 0) >= generation &&
      s?.matchedPods === n &&
      s.updatedPods === n &&
      s.readyPods === n &&
      s.updatedReadyPods === n
    );
  };

export const describeSidecarSet = (o: KubeObject | undefined): string => {
  const s = (o as (KubeObject & { status?: StatusView }) | undefined)?.status;
  return s
    ? `generation ${o?.metadata?.generation}, observed ${s.observedGeneration}, matched ${s.matchedPods}, ` +
        `updated ${s.updatedPods}, ready ${s.readyPods}, updatedReady ${s.updatedReadyPods}`
    : 'no status';
};
