/**
 * Rolling update step (OpenKruise `pkg/controller/daemonset/daemonset_update.go` `rollingUpdate`, and
 * `inplace_update.go`): the nodes the rollout may touch (partition, rollingUpdate.selector), then either old pods
 * replaced within maxUnavailable — in place when InPlaceIfPossible allows it, else deleted for the manage step to
 * recreate — or, with maxSurge, new pods beside old ones and old ones deleted once the new are available. The in-place
 * updates of one round go out up to POD_WRITE_CONCURRENCY at a time (each pod's writes in order); the plan alone
 * decides how many pods maxUnavailable allows.
 */
import { hasInPlaceUpdateReadinessGate, resizeMessages } from '@regatta/inplace-update';
import { EventReasons } from '@regatta/kube';
import type { Pod } from '@regatta/lifecycle';
import { CONTROLLER_REVISION_HASH_LABEL, type ControllerRevision } from '@regatta/revision';
import { POD_WRITE_CONCURRENCY, forEachLimited } from '@regatta/runtime';
import { waitedForBudget, waitsForBudget } from '@regatta/workload';
import { nameOf } from '../daemonset-object.js';
import { REASONS, messages } from '../events.js';
import {
  isPodAtHash,
  nodesToDaemonPods,
  nodesToUpdate,
  partitionNodes,
  planRollingUpdate,
  revisionHash,
  unavailableNumbers,
} from '../planning/index.js';
import type { DaemonSetSync } from './context.js';
import { type SyncNodesResult, syncNodes } from './sync-nodes.js';

export interface UpdateInput {
  pods: readonly Pod[];
  /** The owned revisions, oldest first. */
  revisions: readonly ControllerRevision[];
  updateRevision: ControllerRevision;
}

export async function rollingUpdateStep(s: DaemonSetSync, input: UpdateInput): Promise<SyncNodesResult> {
  const { rollout } = s;
  const now = s.now();
  const shouldRun = new Set(s.nodes.filter((n) => n.eligibility.shouldRun).map((n) => n.name));
  const all = nodesToDaemonPods(input.pods);
  // should-run nodes (those without pods too); pods on other nodes stay in the count unless pruned by the gate
  const nodeToPods = new Map<string, readonly Pod[]>();
  for (const name of shouldRun) nodeToPods.set(name, all.get(name) ?? []);
  // pods on nodes that should not run the daemon: counted in the budget, or with the gate
  // DaemonSetPruneIneligibleNodes left out of it and deleted (`pruneNodesAndOrphanedPods`)
  const pruned: Pod[] = [];
  for (const [name, pods] of all) {
    if (nodeToPods.has(name)) continue;
    if (s.gates.DaemonSetPruneIneligibleNodes)
      pruned.push(...pods.filter((p) => !p.metadata?.deletionTimestamp));
    else nodeToPods.set(name, pods);
  }
  const nodeLabels = new Map(s.nodeObjects.map((n) => [nameOf(n), n.metadata?.labels ?? {}]));
  const { maxSurge, maxUnavailable } = unavailableNumbers(
    rollout.maxUnavailable,
    rollout.maxSurge,
    shouldRun.size,
  );
  const tg = s.templateGeneration !== undefined ? { templateGeneration: s.templateGeneration } : {};
  const candidates = nodesToUpdate({
    nodeToPods,
    nodeLabels,
    hash: s.hash,
    ...tg,
    selector: rollout.selector,
    partition: partitionNodes(rollout.partition, s.ds.status?.desiredNumberScheduled ?? 0),
  });
  const plan = planRollingUpdate({
    candidates,
    nodeToPods,
    hash: s.hash,
    ...tg,
    maxSurge,
    maxUnavailable,
    minReadySeconds: rollout.minReadySeconds,
    now,
  });
  const toDelete: Pod[] = [...pruned];
  if (rollout.rollingUpdateType === 'InPlaceIfPossible' && maxSurge === 0) {
    const updated = new Set<Pod>();
    await forEachLimited(plan.oldPodsToUpdate, POD_WRITE_CONCURRENCY, async (pod) => {
      if (await updateInPlace(s, pod, input)) updated.add(pod);
    });
    // in the plan's order, those that could not be updated in place
    toDelete.push(...plan.oldPodsToUpdate.filter((pod) => !updated.has(pod)));
  } else toDelete.push(...plan.oldPodsToUpdate);
  const result = await syncNodes(s, toDelete, plan.nodesToCreate, input.updateRevision);
  if (plan.oldPodsToUpdate.length > toDelete.length) result.wrote = true;
  return result;
}

/**
 * Updates the pod in place when it has the InPlaceUpdateReady gate and only images, metadata or (vertical scaling)
 * cpu/memory requests and limits changed.
 */
async function updateInPlace(s: DaemonSetSync, pod: Pod, input: UpdateInput): Promise<boolean> {
  if (!hasInPlaceUpdateReadinessGate(pod)) return false;
  const old = input.revisions.find((r) => isPodAtHash(pod, revisionHash(r)));
  const options = {
    now: s.now(),
    envFromMetadata: s.gates.InPlaceUpdateEnvFromMetadata,
    verticalScaling: s.gates.InPlaceWorkloadVerticalScaling && (await s.inPlace.resizeServed()),
    revisionId: revisionHash,
    writeRevision: (p: Pod, revision: string): Pod => ({
      ...p,
      metadata: {
        ...p.metadata,
        labels: { ...(p.metadata?.labels ?? {}), [CONTROLLER_REVISION_HASH_LABEL]: revision },
      },
    }),
  };
  const plan = s.inPlace.plan(pod, old, input.updateRevision, options);
  const name = nameOf(pod);
  if (!plan.inPlace) {
    if (plan.reason === 'QoSClassChanged')
      void s.d.recorder.normal(
        s.ds,
        EventReasons.QoSClassChangeRecreate,
        resizeMessages.qosRecreate(name, plan.message),
      );
    return false;
  }
  // a PodUnavailableBudget that refuses now: wait for budget, the pod kept (docs/podunavailablebudget.md)
  if (await waitsForBudget(s, pod, plan.pod)) return true;
  try {
    const result = await s.inPlace.update(pod, old, input.updateRevision, options);
    if (!result.updated && result.notInPlace.reason === 'ResizeRefused') {
      // the API server refused the resize (beyond the node's allocatable): reported, the pod is kept as it is
      void s.d.recorder.warning(
        s.ds,
        EventReasons.ResizeInfeasible,
        resizeMessages.infeasible(name, result.notInPlace.message),
      );
      return true;
    }
    if (!result.updated) return false;
    if (result.delayMs > 0) s.delays.push(result.delayMs);
  } catch (err) {
    if (waitedForBudget(s, err)) return true;
    void s.d.recorder.warning(s.ds, REASONS.FailedUpdatePodInPlace, messages.failedUpdateInPlace(name, err));
    throw err;
  }
  void s.d.recorder.normal(s.ds, REASONS.SuccessfulUpdatePodInPlace, messages.updatedInPlace(name));
  return true;
}
