/**
 * A workload's rollout phase, as Argo Rollouts reports its `rollout_info{phase}` (docs/operations.md "Metrics"):
 * one word from the kind's status (`rolloutProgress`) and conditions, pure.
 * - `Degraded`: the controller says it is stuck — a `Progressing` condition with status False (CloneSet's
 *   `ProgressDeadlineExceeded`, docs/cloneset.md "Status"), or a `Failed…` condition with status True (CloneSet's
 *   `FailedScale`/`FailedUpdate`, Advanced StatefulSet's `FailedCreatePod`/`FailedUpdatePod`);
 * - `Completed`: the status describes the current generation and every pod that should be updated, ready and
 *   available is (a partition's held pods count as done, as `regatta rollout status` counts them);
 * - `Paused`: not complete and the kind's pause switch is on;
 * - `Progressing`: anything else.
 */
import type { WorkloadCondition } from './progressing.js';
import { rolloutProgress, type RolloutKind, type RolloutStatus, type Workload } from './rollout-status.js';

export const ROLLOUT_PHASES = ['Progressing', 'Paused', 'Completed', 'Degraded'] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

/** The phase of a rollout from its progress and the workload's `status.conditions` (any shape; others ignored). */
export function rolloutPhase(progress: RolloutStatus, conditions: unknown): RolloutPhase {
  const list = Array.isArray(conditions) ? (conditions as Partial<WorkloadCondition>[]) : [];
  const stuck = list.some(
    (c) =>
      typeof c === 'object' &&
      c !== null &&
      ((c.type === 'Progressing' && c.status === 'False') ||
        (typeof c.type === 'string' && c.type.startsWith('Failed') && c.status === 'True')),
  );
  if (stuck) return 'Degraded';
  if (progress.complete) return 'Completed';
  return progress.paused ? 'Paused' : 'Progressing';
}

/** One workload's rollout for the metrics (libs/kit `RolloutSample`): its phase and replica counts. */
export interface WorkloadRolloutSample {
  phase: RolloutPhase;
  desired: number;
  updated: number;
  ready: number;
  available: number | undefined;
}

/** The metrics' view of a workload of `kind` (a controller declares it with `rolloutMetrics`). */
export function rolloutSample(kind: RolloutKind, w: Workload): WorkloadRolloutSample {
  const p = rolloutProgress(kind, w);
  const status = w.status ?? {};
  return {
    phase: rolloutPhase(p, status['conditions']),
    desired: p.desired,
    updated: p.updated,
    ready: p.ready,
    available: p.available,
  };
}
