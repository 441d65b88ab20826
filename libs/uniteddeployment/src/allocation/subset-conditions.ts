/**
 * The subset `Schedulable` condition (`status.subsetStatuses[].conditions`), set as OpenKruise's
 * `UnitedDeploymentSubsetStatus.SetCondition` (`apis/apps/v1beta1/uniteddeployment_types.go`): unchanged when status
 * and reason are the same, else replaced with a new transition time.
 */
import { SUBSET_SCHEDULABLE_CONDITION, type UnitedDeploymentSubsetCondition } from '@regatta/api';
import { toRfc3339 } from '@regatta/kube';

export function getSubsetCondition(
  conditions: readonly UnitedDeploymentSubsetCondition[] | undefined,
  type: string = SUBSET_SCHEDULABLE_CONDITION,
): UnitedDeploymentSubsetCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/** The conditions with `type` set (a new array; the input is not changed). `now` in ms since the epoch. */
export function setSubsetCondition(
  conditions: readonly UnitedDeploymentSubsetCondition[] | undefined,
  update: { type?: string; status: 'True' | 'False'; reason: string; message: string },
  now: number,
): UnitedDeploymentSubsetCondition[] {
  const type = update.type ?? SUBSET_SCHEDULABLE_CONDITION;
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === type);
  const current = i >= 0 ? list[i] : undefined;
  if (current && current.status === update.status && current.reason === update.reason) return list;
  const next: UnitedDeploymentSubsetCondition = {
    type,
    status: update.status,
    lastTransitionTime: toRfc3339(now),
    reason: update.reason,
    message: update.message,
  };
  if (i >= 0) list[i] = next;
  else list.push(next);
  return list;
}

/** A condition's lastTransitionTime in ms since the epoch (0 when missing or unreadable). */
export function transitionTimeMs(c: { lastTransitionTime?: string | null } | undefined): number {
  const t = c?.lastTransitionTime ? Date.parse(c.lastTransitionTime) : NaN;
  return Number.isNaN(t) ? 0 : t;
}
