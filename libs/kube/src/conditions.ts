/**
 * Status conditions kept in a list by `type` (metav1.Condition, PodCondition, workload conditions). Pure: every
 * function returns a new array and never mutates its input.
 */
import { toRfc3339 } from './time.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown' | (string & {});
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  /** Only some condition types have it (Deployment-style, CloneSet `Progressing`). */
  lastUpdateTime?: string;
  observedGeneration?: number;
}

export interface SetConditionOptions {
  /**
   * Also maintain `lastUpdateTime`: set to `now` when the condition is new or its status, reason or message
   * changes, kept otherwise.
   */
  lastUpdateTime?: boolean;
  /**
   * Keep the existing condition as it is (message included) while its status and reason are unchanged, as
   * Kubernetes' `SetDeploymentCondition` does (`pkg/controller/deployment/util/deployment_util.go`). For conditions
   * whose message varies between equal observations (an API error naming a random pod name): the list, and so the
   * stored status, stays the same, and nothing is written for it.
   */
  keepWhileUnchanged?: boolean;
}

/** The condition of that type, if present. */
export function getCondition<C extends Condition>(conditions: readonly C[] | null | undefined, type: string): C | undefined {
  return conditions?.find((c) => c.type === type);
}

/** True when a condition of that type has status `True`. */
export function isConditionTrue(conditions: readonly Condition[] | null | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

/**
 * Adds or replaces the condition of `condition.type` (in place in the list order; new ones are appended):
 * - `lastTransitionTime` is kept while the status is unchanged; when the status changes or the condition is new it is
 *   `condition.lastTransitionTime` if given, else `now`;
 * - reason, message and observedGeneration are taken from `condition`;
 * - `lastUpdateTime` per {@link SetConditionOptions}, else as given in `condition`;
 * - with `keepWhileUnchanged`, an existing condition of the same status and reason is kept whole.
 */
export function setCondition<C extends Condition>(
  conditions: readonly C[] | null | undefined,
  condition: C,
  now: Date | string,
  options: SetConditionOptions = {},
): C[] {
  const ts = typeof now === 'string' ? now : toRfc3339(now);
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === condition.type);
  const existing = i >= 0 ? list[i] : undefined;
  if (
    options.keepWhileUnchanged &&
    existing !== undefined &&
    existing.status === condition.status &&
    existing.reason === condition.reason
  )
    return list;
  const next: C = { ...condition };
  if (existing !== undefined && existing.status === condition.status) {
    if (existing.lastTransitionTime !== undefined) next.lastTransitionTime = existing.lastTransitionTime;
    else if (next.lastTransitionTime === undefined) next.lastTransitionTime = ts;
  } else if (next.lastTransitionTime === undefined) {
    next.lastTransitionTime = ts;
  }
  if (options.lastUpdateTime) {
    const changed =
      existing === undefined ||
      existing.status !== condition.status ||
      existing.reason !== condition.reason ||
      existing.message !== condition.message;
    next.lastUpdateTime = changed ? ts : (existing.lastUpdateTime ?? ts);
  }
  if (existing === undefined) list.push(next);
  else list[i] = next;
  return list;
}

/** The list without the condition of that type. */
export function removeCondition<C extends Condition>(conditions: readonly C[] | null | undefined, type: string): C[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}
