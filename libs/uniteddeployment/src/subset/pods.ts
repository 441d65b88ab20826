/** What the controller reads from a subset's pods (OpenKruise `pkg/controller/uniteddeployment/adapter/adapter_util.go`). */
import type { Pod } from '@regatta/api';
import { UD_REVISION_LABEL } from '../keys.js';

export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export function isPodTerminating(pod: Pod): boolean {
  return Boolean(pod.metadata?.deletionTimestamp);
}

/** Pods not being deleted and not finished. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !isPodTerminating(pod) && phase !== 'Succeeded' && phase !== 'Failed';
}

/** `calculateUpdatedReplicas`: active pods at the expected UnitedDeployment revision, and those of them Ready. */
export function updatedReplicas(pods: readonly Pod[], revision: string): { updated: number; updatedReady: number } {
  let updated = 0;
  let updatedReady = 0;
  for (const p of pods) {
    if (!isActivePod(p) || p.metadata?.labels?.[UD_REVISION_LABEL] !== revision) continue;
    updated++;
    if (isPodReady(p)) updatedReady++;
  }
  return { updated, updatedReady };
}

/** `getCurrentPartition` for OnDelete: the pods not at the workload's own UnitedDeployment revision. */
export function onDeletePartition(pods: readonly Pod[], workloadRevision: string | undefined): number {
  return pods.filter((p) => p.metadata?.labels?.[UD_REVISION_LABEL] !== workloadRevision).length;
}

/**
 * A Pending pod the scheduler could not place (`PodScheduled=False`, reason `Unschedulable`), not being deleted,
 * created at `createdMs`.
 */
export function isPendingUnschedulable(pod: Pod): boolean {
  if (isPodTerminating(pod) || pod.status?.phase !== 'Pending' || pod.spec?.nodeName) return false;
  return (
    pod.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable') ??
    false
  );
}
