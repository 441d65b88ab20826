/**
 * `regatta rollout restart`: what kubectl-kruise's `rollout restart` does for OpenKruise's workloads with a pod
 * template (CloneSet, Advanced StatefulSet, Advanced DaemonSet): stamp `kubectl.kubernetes.io/restartedAt` on the
 * template, so every pod is replaced as for any template change (a new revision; metadata-only, so in place where
 * the update strategy allows). Refused while paused, as kubectl refuses a paused Deployment.
 */
import type { Workload } from '@regatta/workload';
import { RolloutUsageError } from './errors.js';
import type { KindInfo } from './kinds.js';

export const RESTARTED_AT_ANNOTATION = 'kubectl.kubernetes.io/restartedAt';

const RESTARTABLE = new Set(['CloneSet', 'StatefulSet', 'DaemonSet']);

/** A usage error for a kind without a pod template of its own (checked before the workload is read). */
export function assertRestartable(info: KindInfo): void {
  if (!RESTARTABLE.has(info.kind)) {
    throw new RolloutUsageError(
      `${info.title} cannot be restarted: only CloneSet, Advanced StatefulSet and Advanced DaemonSet have a pod template of their own`,
    );
  }
}

/** The merge patch, or a usage error for a kind without a pod template of its own or a paused workload. */
export function restartPatch(info: KindInfo, w: Workload, paused: boolean, now: Date): Record<string, unknown> {
  assertRestartable(info);
  if (paused) {
    throw new RolloutUsageError(
      `${info.title} ${JSON.stringify(w.metadata?.name ?? '')} is paused; run \`regatta rollout resume\` first`,
    );
  }
  // RFC 3339 to the second, as kubectl writes it
  const at = `${now.toISOString().slice(0, 19)}Z`;
  return { spec: { template: { metadata: { annotations: { [RESTARTED_AT_ANNOTATION]: at } } } } };
}
