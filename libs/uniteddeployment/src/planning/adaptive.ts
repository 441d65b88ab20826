/**
 * Adaptive scheduling without reservation (OpenKruise `pkg/controller/uniteddeployment/uniteddeployment_controller.go`
 * `calculateSubsetsStatusForDefaultAdaptiveStrategy`; docs/uniteddeployment.md "Adaptive scheduling"): a subset whose
 * pods stay Pending-unschedulable longer than `rescheduleCriticalSeconds` is marked `Schedulable=False` for
 * `unschedulableDuration`; while marked, the allocation keeps only its ready pods there. Pure.
 */
import type { Pod } from '@regatta/api';
import { SUBSET_SCHEDULABLE } from '../keys.js';
import { isPendingUnschedulable } from '../subset/pods.js';
import type { UDCondition } from '../types.js';

export interface AdaptiveSubsetInput {
  /** The subset's `Schedulable` condition as stored. */
  condition: UDCondition | undefined;
  pods: readonly Pod[];
  /** Workload `status.replicas` and `status.readyReplicas`. */
  replicas: number;
  readyReplicas: number;
}

export interface AdaptiveTimes {
  rescheduleCriticalMs: number;
  unschedulableMs: number;
  now: Date;
}

export interface AdaptiveSubsetStatus {
  unschedulable: boolean;
  /** Pods pending past the critical time. */
  pendingPods: number;
  /** The `Schedulable` condition to store (undefined: leave as is). */
  condition: UDCondition | undefined;
  /** Durations after which to look again (the smallest wins). */
  requeueMs: number[];
}

export function defaultAdaptiveStatus(input: AdaptiveSubsetInput, t: AdaptiveTimes): AdaptiveSubsetStatus {
  const now = t.now.getTime();
  const out: AdaptiveSubsetStatus = { unschedulable: false, pendingPods: 0, condition: undefined, requeueMs: [] };
  const c = input.condition;
  if (c?.status === 'False') {
    const since = c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : now;
    const recoverAt = since + t.unschedulableMs;
    if (now < recoverAt) {
      out.unschedulable = true;
      out.requeueMs.push(recoverAt - now);
    } else {
      out.condition = schedulable('True', 'recover', `unschedulable subset recovered after ${t.unschedulableMs / 1000} seconds`, t.now);
    }
  }
  if (input.readyReplicas < input.replicas) {
    let next = Number.POSITIVE_INFINITY;
    for (const pod of input.pods) {
      if (!isPendingUnschedulable(pod)) continue;
      const created = pod.metadata?.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : now;
      const timeoutAt = created + t.rescheduleCriticalMs;
      if (now >= timeoutAt) out.pendingPods++;
      else next = Math.min(next, timeoutAt - now);
    }
    if (Number.isFinite(next)) out.requeueMs.push(next);
    if (out.pendingPods > 0) {
      out.unschedulable = true;
      const keep = c?.status === 'False' && !out.condition ? c : undefined;
      out.condition = keep
        ? { ...keep, reason: 'reschedule', message: 'timeout pending pods found' }
        : schedulable('False', 'reschedule', 'timeout pending pods found', t.now);
      out.requeueMs.push(t.unschedulableMs);
    }
  }
  return out;
}

function schedulable(status: 'True' | 'False', reason: string, message: string, now: Date): UDCondition {
  return { type: SUBSET_SCHEDULABLE, status, reason, message, lastTransitionTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}
