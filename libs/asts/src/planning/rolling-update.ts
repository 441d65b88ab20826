/**
 * The rolling update's choices (OpenKruise `pkg/controller/statefulset/stateful_set_control.go`
 * `rollingUpdateStatefulsetPods`, `handleSpecifiedDeletedPods`): which pods count as unavailable, which
 * specified-deleted pods go, and which pods are updated this round under `maxUnavailable`.
 */
import { type IntOrString, scaleK8s } from '@regatta/kube';
import { checkPodUpdateCompleted } from '@regatta/inplace-update';
import type { Pod } from '@regatta/lifecycle';
import { podRevision } from '@regatta/revision';
import { hasSpecifiedDeleteLabel } from '@regatta/rollout';
import { isHealthy, isTerminating, runningAndAvailable } from './pod-state.js';

/** `maxUnavailable` floor-scaled against replicas (default 1), at least 1; an invalid value throws. */
export function maxUnavailableOf(v: IntOrString | null | undefined, replicas: number): number {
  return Math.max(1, scaleK8s(v ?? 1, replicas, false));
}

/** `scaleStrategy.maxUnavailable` floor-scaled, at least 1; undefined (no limit) when unset. */
export function scaleBudgetOf(v: IntOrString | null | undefined, replicas: number): number | undefined {
  if (v == null) return undefined;
  return Math.max(1, scaleK8s(v, replicas, false));
}

/**
 * The names of the pods counted unavailable: unhealthy or terminating, in-place update not completed, or not yet
 * available for minReadySeconds. `waitMs`: the earliest a pod becomes available (0 for none).
 */
export function unavailablePods(
  slots: readonly (Pod | undefined)[],
  minReadySeconds: number,
  now: Date,
): { names: Set<string>; waitMs: number } {
  const names = new Set<string>();
  let waitMs = 0;
  for (const p of slots) {
    if (!p) continue;
    const name = p.metadata?.name ?? '';
    if (!isHealthy(p) || !checkPodUpdateCompleted(p).completed) {
      names.add(name);
      continue;
    }
    const a = runningAndAvailable(p, minReadySeconds, now);
    if (!a.available) {
      names.add(name);
      if (a.waitMs > 0 && (waitMs === 0 || a.waitMs < waitMs)) waitMs = a.waitMs;
    }
  }
  return { names, waitMs };
}

export interface RollingUpdatePlan {
  /** Slots of specified-deleted pods to delete now (highest first). */
  specifiedDeletes: number[];
  /** Slots to update now, in order (in place or by deletion). */
  updates: number[];
}

/**
 * What this round does: specified-deleted pods (not limited by partition) while the budget allows or the pod is
 * unavailable anyway, then the pods of `updateIndexes` not at the update revision, stopping at the first available
 * pod over budget. `unavailable` is updated with the pods chosen.
 */
export function planRollingUpdate(
  slots: readonly (Pod | undefined)[],
  updateIndexes: readonly number[],
  updateRevision: string,
  maxUnavailable: number,
  unavailable: Set<string>,
): RollingUpdatePlan {
  const specifiedDeletes: number[] = [];
  const deleted = new Set<string>();
  for (let i = slots.length - 1; i >= 0; i--) {
    const p = slots[i];
    if (!p || !hasSpecifiedDeleteLabel(p)) continue;
    const name = p.metadata?.name ?? '';
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) continue;
    specifiedDeletes.push(i);
    deleted.add(name);
    unavailable.add(name);
  }
  const updates: number[] = [];
  for (const i of updateIndexes) {
    const p = slots[i];
    if (!p) continue;
    if (podRevision(p) === updateRevision) continue;
    const name = p.metadata?.name ?? '';
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) break;
    if (!deleted.has(name) && !isTerminating(p)) {
      updates.push(i);
      unavailable.add(name);
    }
  }
  return { specifiedDeletes, updates };
}
