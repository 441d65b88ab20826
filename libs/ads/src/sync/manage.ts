/**
 * Manage step (OpenKruise `pkg/controller/daemonset/daemonset_controller.go` `manage`): a pod for every node that
 * should run the daemon and has none (limited by the partition with partitioned scaling), failed and surplus pods
 * deleted, pods on nodes that should no longer run it deleted.
 */
import type { ControllerRevision } from '@regatta/revision';
import type { Pod } from '@regatta/lifecycle';
import { REASONS, messages } from '../events.js';
import {
  FailedPodBackoff,
  isPodAtHash,
  nodesNeedingPods,
  nodesToDaemonPods,
  partitionNodes,
  planManage,
  unavailableNumbers,
} from '../planning/index.js';
import type { DaemonSetSync } from './context.js';
import { type SyncNodesResult, syncNodes } from './sync-nodes.js';

export async function manageStep(
  s: DaemonSetSync,
  pods: readonly Pod[],
  updateRevision: ControllerRevision,
): Promise<SyncNodesResult> {
  const { rollout } = s;
  const desired = s.nodes.filter((n) => n.eligibility.shouldRun).length;
  const { maxSurge } = unavailableNumbers(rollout.maxUnavailable, rollout.maxSurge, desired);
  const plan = planManage({
    nodes: s.nodes,
    pods,
    hash: s.hash,
    ...(s.templateGeneration !== undefined ? { templateGeneration: s.templateGeneration } : {}),
    surge: rollout.type === 'RollingUpdate' && maxSurge > 0,
    minReadySeconds: rollout.minReadySeconds,
    now: s.now(),
  });
  if (plan.requeueAfterMs > 0) s.delays.push(plan.requeueAfterMs);
  // failed pods: deleted unless their node is backing off (then looked at again when it ends)
  const held = new Set<Pod>();
  const now = s.now();
  for (const { pod, node } of plan.failedPods) {
    const key = FailedPodBackoff.key(s.key, s.ds.metadata?.uid ?? '', s.ds.metadata?.generation ?? 0, node);
    const wait = s.failedBackoff.remaining(key, now);
    if (wait > 0) {
      held.add(pod);
      s.delays.push(wait);
      continue;
    }
    s.failedBackoff.next(key, now);
    void s.d.recorder.warning(
      s.ds,
      REASONS.FailedDaemonPod,
      messages.failedDaemonPod(pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', node),
    );
  }
  let creates = plan.nodesNeedingPods;
  const partition =
    rollout.type === 'RollingUpdate'
      ? partitionNodes(rollout.partition, s.ds.status?.desiredNumberScheduled ?? 0)
      : 0;
  if (partition > 0) {
    const byNode = nodesToDaemonPods(pods.filter((p) => !p.metadata?.deletionTimestamp));
    let newPods = 0;
    for (const list of byNode.values())
      if (list.some((p) => isPodAtHash(p, s.hash, s.templateGeneration))) newPods++;
    creates = nodesNeedingPods(newPods, desired, partition, rollout.partitionedScaling, creates);
  }
  return syncNodes(
    s,
    plan.podsToDelete.filter((p) => !held.has(p)),
    creates,
    updateRevision,
  );
}
