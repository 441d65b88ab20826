/** Writing pod conditions the way Kruise does (`util.SetPodCondition`, `util.SetPodReadyCondition`). */
import { toRfc3339 } from '@regatta/kube';
import { CONTAINERS_READY, POD_READY, type Pod, type PodCondition, getPodCondition } from './pod.js';

/**
 * Kruise `SetPodCondition`: appends the condition when the type is missing, replaces it only when the status
 * differs (a same-status call changes nothing, not even reason or message). Returns the new list; the pod is not
 * modified.
 */
export function setPodCondition(
  conditions: readonly PodCondition[] | null | undefined,
  condition: PodCondition,
): PodCondition[] {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === condition.type);
  if (i < 0) list.push(condition);
  else if (list[i]?.status !== condition.status) list[i] = condition;
  return list;
}

/** The pod with `status.conditions` replaced; the input is not modified. */
export function withPodConditions(pod: Pod, conditions: PodCondition[]): Pod {
  return { ...pod, status: { ...pod.status, conditions } };
}

/**
 * Kruise `SetPodReadyCondition`: when the pod has a `Ready` condition and `ContainersReady` is `True`, `Ready`
 * becomes `False` (reason `ReadinessGatesNotReady`) if any readiness gate's condition is missing or not `True`, and
 * `True` otherwise (same-status rule of {@link setPodCondition}). Returns the new conditions of `pod`.
 */
export function recomputePodReady(pod: Pod, now: Date): PodCondition[] {
  const conditions = pod.status?.conditions ?? [];
  if (getPodCondition(pod, POD_READY) === undefined) return [...conditions];
  if (getPodCondition(pod, CONTAINERS_READY)?.status !== 'True') return [...conditions];
  const unready: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = getPodCondition(pod, gate.conditionType);
    if (c === undefined)
      unready.push(`corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`);
    else if (c.status !== 'True')
      unready.push(`the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}`);
  }
  const ready: PodCondition =
    unready.length === 0
      ? { type: POD_READY, status: 'True', lastTransitionTime: toRfc3339(now) }
      : { type: POD_READY, status: 'False', reason: 'ReadinessGatesNotReady', message: unready.join(', ') };
  return setPodCondition(conditions, ready);
}
