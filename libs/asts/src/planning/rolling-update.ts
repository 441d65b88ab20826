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
import type { ClaimResizeState } from './claim-resize.js';
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
 * How the rolling update sees a pod's claims when they are resized on rolling update (gate
 * `StatefulSetAutoResizePVCGate` with `volumeClaimUpdateStrategy.type: OnPodRollingUpdate`; planning/claim-resize.ts).
 */
export interface ClaimsView {
  /** `IsClaimsCompatible` (matched) or what the claims need. */
  state(pod: Pod): ClaimResizeState;
  /** `IsOwnedPVCsReady`. */
  ready(pod: Pod): boolean;
  /** `IsOwnedPVCsCompleted`. */
  resizeCompleted(pod: Pod): boolean;
}

/**
 * The names of the pods counted unavailable: unhealthy or terminating, in-place update not completed, not yet
 * available for minReadySeconds, or (with claims resized on rolling update) a claim not yet at its requested size.
 * `waitMs`: the earliest a pod becomes available (0 for none).
 */
export function unavailablePods(
  slots: readonly (Pod | undefined)[],
  minReadySeconds: number,
  now: Date,
  claims?: ClaimsView,
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
    } else if (claims && !claims.ready(p)) {
      names.add(name);
    }
  }
  return { names, waitMs };
}

export interface RollingUpdatePlan {
  /** Slots of specified-deleted pods to delete now (highest first). */
  specifiedDeletes: number[];
  /** Slots whose claims are resized now, before any pod update (claims resized on rolling update only). */
  resizes: number[];
  /** Slots to update now, in order (in place or by deletion). */
  updates: number[];
  /**
   * The slot where the walk stopped on a claim that differs from its template in more than its size (upstream's
   * `TryPatchPVC` error, event FailedUpdatePVC): nothing after it in the order is updated.
   */
  mismatch?: number;
}

/**
 * What this round does: specified-deleted pods (not limited by partition) while the budget allows or the pod is
 * unavailable anyway, then the pods of `updateIndexes` not at the update revision (or, with `claims`, whose claims
 * are smaller than their templates), stopping at the first available pod over budget. With `claims`, a pod's claims
 * are resized first and the pod itself is updated only once their resize completed (it counts unavailable
 * meanwhile). `unavailable` is updated with the pods chosen.
 */
export function planRollingUpdate(
  slots: readonly (Pod | undefined)[],
  updateIndexes: readonly number[],
  updateRevision: string,
  maxUnavailable: number,
  unavailable: Set<string>,
  claims?: ClaimsView,
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
  const resizes: number[] = [];
  for (const i of updateIndexes) {
    const p = slots[i];
    if (!p) continue;
    // a pod not created yet (this round's in-memory pod) has no claims to compare
    const claimState = claims && p.metadata?.uid ? claims.state(p) : 'matched';
    if (podRevision(p) === updateRevision && claimState === 'matched') continue;
    const name = p.metadata?.name ?? '';
    if (unavailable.size >= maxUnavailable && !unavailable.has(name)) break;
    if (claims && p.metadata?.uid) {
      if (claimState === 'mismatch') return { specifiedDeletes, resizes, updates, mismatch: i };
      if (claimState === 'expand' || !claims.resizeCompleted(p)) {
        // a claim patched now is not resized yet: the pod waits for it, unavailable
        if (claimState === 'expand') resizes.push(i);
        unavailable.add(name);
        continue;
      }
    }
    if (!deleted.has(name) && !isTerminating(p)) {
      updates.push(i);
      unavailable.add(name);
    }
  }
  return { specifiedDeletes, resizes, updates };
}
