/**
 * Filling the barrier (OpenKruise `pkg/controller/containerlaunchpriority/container_launch_priority_controller.go`):
 * the highest priority among the containers not ready yet is released (`p_<n>: "true"` in `<pod>-barrier`); once the
 * highest pending priority is released (or nothing is pending) the pod is marked
 * `apps.kruise.io/container-launch-priority-completed: "true"`.
 */
import type { Pod } from '../injection/types.js';
import { barrierKey, barrierPriority } from './barrier-env.js';

export const LAUNCH_PRIORITY_COMPLETED_KEY = 'apps.kruise.io/container-launch-priority-completed';

export type BarrierStep = { release?: string; completed: boolean };

/** What to do next for the pod, given the barrier ConfigMap's data keys. */
export function nextBarrierStep(pod: Pod, barrierData: Readonly<Record<string, string>>): BarrierStep {
  const ready = new Set((pod.status?.containerStatuses ?? []).filter((s) => s.ready).map((s) => s.name));
  const pending = (pod.spec?.containers ?? [])
    .filter((c) => !ready.has(c.name))
    .map(barrierPriority)
    .filter((p): p is number => p !== undefined)
    .sort((a, b) => a - b);
  const lowest = pending[0];
  const highest = pending.at(-1);
  if (lowest === undefined || highest === undefined || barrierKey(lowest) in barrierData)
    return { completed: true };
  const step: BarrierStep = { completed: highest === lowest };
  if (!(barrierKey(highest) in barrierData)) step.release = barrierKey(highest);
  return step;
}

/** Pods the barrier controller looks at: a barrier env, not completed yet. */
export function needsBarrier(pod: Pod): boolean {
  if (pod.metadata?.annotations?.[LAUNCH_PRIORITY_COMPLETED_KEY] === 'true') return false;
  if (pod.metadata?.deletionTimestamp) return false;
  return (pod.spec?.containers ?? []).some((c) => barrierPriority(c) !== undefined);
}
