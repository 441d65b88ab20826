/**
 * The manage plan (OpenKruise `pkg/controller/daemonset/daemonset_controller.go` `manage` / `podsShouldBeOnNode`,
 * docs/ads.md "Reconcile"): for every node, whether it needs a pod and which of its pods go — failed ones, surplus
 * ones (one pod per node, or one old and one new while surging), PreparingDelete ones, all of them on a node that should no longer run
 * the daemon — and the unscheduled pods whose node is gone.
 */
import {
  LifecycleState,
  type Pod,
  getPodCondition,
  getPodLifecycleState,
  isPodReady,
} from '@regatta/lifecycle';
import { isPodAvailable } from '@regatta/rollout';
import type { Eligibility } from './eligibility.js';
import { isTerminating, msUntilAvailable, nodesToDaemonPods, targetNodeName } from './node-pods.js';
import { isPodAtHash } from './revision-hash.js';

export interface NodeFacts {
  name: string;
  eligibility: Eligibility;
}

export interface ManageInput {
  nodes: readonly NodeFacts[];
  /** The DaemonSet's pods (terminating ones included). */
  pods: readonly Pod[];
  hash: string;
  templateGeneration?: string;
  /** maxSurge scales to a non-zero number (`AllowsSurge`). */
  surge: boolean;
  minReadySeconds: number;
  now: Date;
}

export interface ManagePlan {
  /** Nodes that should get a pod, sorted by name (plain string order). */
  nodesNeedingPods: string[];
  podsToDelete: Pod[];
  /** Failed pods among {@link podsToDelete}, with their node (a `FailedDaemonPod` event each). */
  failedPods: { pod: Pod; node: string }[];
  /** When a surged new pod becomes available (ms), 0 for none. */
  requeueAfterMs: number;
}

/** `podsShouldBeOnNode` for one node. */
export function planNode(
  node: NodeFacts,
  pods: readonly Pod[],
  input: Omit<ManageInput, 'nodes' | 'pods'>,
): { needsPod: boolean; toDelete: Pod[]; failed: Pod[]; requeueAfterMs: number } {
  const { shouldRun, shouldContinueRunning } = node.eligibility;
  const live = pods.filter((p) => !isTerminating(p));
  const out = { needsPod: false, toDelete: [] as Pod[], failed: [] as Pod[], requeueAfterMs: 0 };
  if (!shouldContinueRunning) {
    out.toDelete = live;
    return out;
  }
  if (shouldRun && pods.length === 0) {
    out.needsPod = true;
    return out;
  }
  const running: Pod[] = [];
  for (const p of live) {
    if (p.status?.phase === 'Failed') {
      out.failed.push(p);
      out.toDelete.push(p);
    } else if (getPodLifecycleState(p) === LifecycleState.PreparingDelete) {
      // deleted once its preDelete hook lets go (syncNodes keeps it while hooked)
      out.toDelete.push(p);
    } else running.push(p);
  }
  if (!input.surge) {
    // keep the oldest; the rest are surplus
    out.toDelete.push(...running.slice(1));
  } else if (running.length === 0) {
    // surging, a node needs at least one pod not being deleted: a new one beside the terminating, failed or
    // PreparingDelete ones (upstream `podsShouldBeOnNode`; without surge, none until they are gone)
    out.needsPod = shouldRun;
  } else {
    let oldestNew: Pod | undefined;
    let oldestOld: Pod | undefined;
    for (const p of running) {
      const isNew = isPodAtHash(p, input.hash, input.templateGeneration);
      if (isNew && !oldestNew) oldestNew = p;
      else if (!isNew && !oldestOld) oldestOld = p;
      else out.toDelete.push(p);
    }
    if (oldestNew && oldestOld) {
      if (!isPodReady(oldestOld)) out.toDelete.push(oldestOld);
      else if (isPodAvailable(oldestNew, input.minReadySeconds, input.now)) out.toDelete.push(oldestOld);
      else if (input.minReadySeconds > 0 && getPodCondition(oldestNew, 'Ready')?.status === 'True') {
        out.requeueAfterMs = msUntilAvailable(oldestNew, input.minReadySeconds, input.now) + 1000;
      }
    }
  }
  return out;
}

/** `manage` over all nodes: the nodes needing pods and the pods to delete. */
export function planManage(input: ManageInput): ManagePlan {
  const byNode = nodesToDaemonPods(input.pods);
  const plan: ManagePlan = { nodesNeedingPods: [], podsToDelete: [], failedPods: [], requeueAfterMs: 0 };
  const known = new Set<string>();
  for (const node of input.nodes) {
    known.add(node.name);
    const r = planNode(node, byNode.get(node.name) ?? [], input);
    if (r.needsPod) plan.nodesNeedingPods.push(node.name);
    plan.podsToDelete.push(...r.toDelete);
    for (const pod of r.failed) plan.failedPods.push({ pod, node: node.name });
    if (r.requeueAfterMs > 0)
      plan.requeueAfterMs =
        plan.requeueAfterMs > 0 ? Math.min(plan.requeueAfterMs, r.requeueAfterMs) : r.requeueAfterMs;
  }
  // `getUnscheduledPodsWithoutNode`: a pod not yet bound whose node no longer exists
  for (const pod of input.pods) {
    const node = targetNodeName(pod);
    if (!pod.spec?.nodeName && node !== undefined && !known.has(node) && !isTerminating(pod))
      plan.podsToDelete.push(pod);
  }
  plan.nodesNeedingPods.sort();
  return plan;
}

/**
 * `GetNodesNeedingPods`: all needing nodes, or with partitioned (progressive) scaling only the first
 * `max(desired - newPods - min(partition, desired), 0)` of them; node names sorted as plain strings.
 */
export function nodesNeedingPods(
  newPods: number,
  desired: number,
  partition: number,
  progressive: boolean,
  needing: readonly string[],
): string[] {
  const sorted = [...needing].sort();
  if (!progressive) return sorted;
  const max = Math.max(desired - newPods - Math.min(Math.max(partition, 0), desired), 0);
  return sorted.slice(0, Math.min(max, sorted.length));
}
