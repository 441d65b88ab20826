/**
 * Status step (OpenKruise `pkg/controller/daemonset/daemonset_controller.go` `updateDaemonSetStatus`): the counts
 * over the nodes as the cache shows them, the hash, the collision count and — after a full sync only —
 * observedGeneration; written only when one of them differs from the stored status, on the workload's status cadence
 * (a change only in the counts waits for the interval and asks for a requeue,
 * docs/adr/0050-workload-status-write-cadence.md).
 */
import type { Pod } from '@regatta/lifecycle';
import { type StatusCadence, writeStatusOnCadence } from '@regatta/workload';
import { DAEMONSET_GVK } from '../daemonset-object.js';
import {
  type DaemonSetCounts,
  computeCounts,
  daemonSetStatusCadence,
  nodesToDaemonPods,
  statusUnchanged,
} from '../planning/index.js';
import type { DaemonSetSync } from './context.js';

export interface DaemonSetStatusOut extends DaemonSetCounts {
  observedGeneration?: number;
  updateRevision: string;
  /** updateRevision again, under the name v1alpha1 readers know (docs/adr/0023-daemonset-hash-stored-for-v1alpha1-readers.md). */
  daemonSetHash: string;
  collisionCount?: number;
}

export async function statusStep(
  s: DaemonSetSync,
  pods: readonly Pod[],
  collisionCount: number,
  updateObservedGeneration: boolean,
  cadence: { control: StatusCadence; urgent: boolean },
): Promise<DaemonSetStatusOut> {
  const { ds, rollout } = s;
  const counts = computeCounts({
    nodes: s.nodes,
    nodeToPods: nodesToDaemonPods(pods),
    hash: s.hash,
    ...(s.templateGeneration !== undefined ? { templateGeneration: s.templateGeneration } : {}),
    minReadySeconds: rollout.minReadySeconds,
    now: s.now(),
  });
  const stored = ds.status as Record<string, unknown> | undefined;
  const generation = ds.metadata?.generation ?? 0;
  const storedGeneration = (stored?.['observedGeneration'] as number | undefined) ?? 0;
  const status: DaemonSetStatusOut = {
    ...counts,
    updateRevision: s.hash,
    daemonSetHash: s.hash,
    ...(collisionCount > 0 || stored?.['collisionCount'] != null ? { collisionCount } : {}),
    ...(updateObservedGeneration
      ? { observedGeneration: generation }
      : storedGeneration
        ? { observedGeneration: storedGeneration }
        : {}),
  };
  const written = await writeStatusOnCadence(s.d.client, {
    workload: ds,
    kind: DAEMONSET_GVK,
    status,
    changed: () =>
      !statusUnchanged(
        stored,
        counts,
        s.hash,
        updateObservedGeneration ? generation : storedGeneration,
        collisionCount,
      ),
    cadence: cadence.control,
    rules: daemonSetStatusCadence(rollout.partition),
    now: s.now(),
    // a reconcile that ends in an error is brought back by its back-off, not by a requeue after the interval
    urgent: cadence.urgent,
  });
  s.delays.push(written.requeueAfterMs);
  // ready but not yet available pods: look again when minReadySeconds has passed
  if (rollout.minReadySeconds > 0 && counts.numberReady !== counts.numberAvailable)
    s.delays.push(rollout.minReadySeconds * 1000);
  return status;
}
