/**
 * The status of a round (`pkg/controller/resourcedistribution/utils.go` calculateNewStatus): desired, succeeded,
 * failed = desired − succeeded, observedGeneration and the six conditions in their fixed order. A condition is True
 * when a namespace failed that way (reason = the last error, the namespaces listed), False with reason Succeeded
 * otherwise; lastTransitionTime moves only when the status flips.
 */
import {
  RESOURCE_DISTRIBUTION_CONDITION_TYPES,
  RESOURCE_DISTRIBUTION_SUCCEEDED_REASON,
  type ResourceDistributionCondition,
  type ResourceDistributionConditionType,
  type ResourceDistributionStatus,
} from '@regatta/api';
import { jsonEqual, toRfc3339 } from '@regatta/kube';

/** One namespace that failed, and how. */
export interface NamespaceFailure {
  namespace: string;
  condition: ResourceDistributionConditionType;
  message: string;
}

export interface RoundOutcome {
  desired: number;
  succeeded: number;
  failures: readonly NamespaceFailure[];
  generation?: number;
}

/** The six conditions (both the v1beta1 `failedNamespaces` and the v1alpha1 `failedNamespace` lists). */
export function distributionConditions(
  failures: readonly NamespaceFailure[],
  previous: readonly ResourceDistributionCondition[] | undefined,
  now: Date,
): ResourceDistributionCondition[] {
  return RESOURCE_DISTRIBUTION_CONDITION_TYPES.map((type, i) => {
    const mine = failures.filter((f) => f.condition === type);
    const status = mine.length > 0 ? 'True' : 'False';
    const old = previous?.length === RESOURCE_DISTRIBUTION_CONDITION_TYPES.length ? previous[i] : undefined;
    const lastTransitionTime =
      old && old.status === status && old.lastTransitionTime ? old.lastTransitionTime : toRfc3339(now);
    if (mine.length === 0) return { type, status, reason: RESOURCE_DISTRIBUTION_SUCCEEDED_REASON, lastTransitionTime };
    const namespaces = mine.map((f) => f.namespace);
    return {
      type,
      status,
      reason: mine[mine.length - 1]!.message,
      failedNamespaces: namespaces,
      failedNamespace: namespaces,
      lastTransitionTime,
    };
  });
}

export function distributionStatus(
  outcome: RoundOutcome,
  previous: ResourceDistributionStatus | undefined,
  now: Date,
): ResourceDistributionStatus {
  return {
    desired: outcome.desired,
    succeeded: outcome.succeeded,
    failed: outcome.desired - outcome.succeeded,
    ...(outcome.generation !== undefined ? { observedGeneration: outcome.generation } : {}),
    conditions: distributionConditions(outcome.failures, previous?.conditions, now),
  };
}

/** Whether writing `next` changes anything. */
export function statusChanged(previous: ResourceDistributionStatus | undefined, next: ResourceDistributionStatus): boolean {
  return !jsonEqual(previous ?? {}, next);
}
