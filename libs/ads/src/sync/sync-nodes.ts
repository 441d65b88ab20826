/**
 * Pod creations and deletions (OpenKruise `pkg/controller/daemonset/daemonset_controller.go` `syncNodes`): a pod a
 * preDelete hook holds is moved to PreparingDelete and kept; the rest are capped at burstReplicas each way; the
 * creations go out in slow-start batches (1, 2, 4, …) stopping after a batch with a failure; each write is expected
 * (scale expectations) and announced with Kubernetes' pod-control events.
 */
import { type WriteOutcome, createdOnRead, isNotFound, settleWrite } from '@regatta/kube';
import { LifecycleState, type Pod, deleteStep } from '@regatta/lifecycle';
import { type ControllerRevision, templateFromRevision } from '@regatta/revision';
import { slowStartBatches } from '@regatta/rollout';
import { forEachLimited } from '@regatta/runtime';
import { deletePodExpected, waitedForBudget } from '@regatta/workload';
import { nameOf } from '../daemonset-object.js';
import { REASONS, messages } from '../events.js';
import { burstReplicas, daemonPodName, newDaemonPod } from '../planning/index.js';
import { type DaemonSetSync, POD, POD_WRITE_CONCURRENCY } from './context.js';

export interface SyncNodesResult {
  /** Something was written (the cache must catch up before the next decision). */
  wrote: boolean;
  errors: unknown[];
}

export async function syncNodes(
  s: DaemonSetSync,
  podsToDelete: readonly Pod[],
  nodesToCreate: readonly string[],
  updateRevision: ControllerRevision,
): Promise<SyncNodesResult> {
  const result: SyncNodesResult = { wrote: false, errors: [] };
  const lifecycle = s.rollout.lifecycle;
  const deletions: Pod[] = [];
  for (const pod of podsToDelete) {
    const step = deleteStep(pod, lifecycle);
    if (step.action === 'prepareDelete') {
      try {
        if (
          await s.lifecycle.transition(pod, LifecycleState.PreparingDelete, {
            markPodNotReady: step.markPodNotReady,
          })
        )
          result.wrote = true;
      } catch (err) {
        if (!isNotFound(err)) result.errors.push(err);
      }
    } else deletions.push(pod);
  }
  const burst = burstReplicas(s.rollout.burstReplicas, s.ds.status?.desiredNumberScheduled ?? 0);
  const creates = nodesToCreate.slice(0, burst);
  const deletes = deletions.slice(0, burst);
  if (creates.length > 0) {
    s.log.info({ count: creates.length, nodes: creates }, 'creating daemon pods');
    const c = await createPods(s, creates, updateRevision);
    if (c.created > 0) result.wrote = true;
    result.errors.push(...c.errors);
  }
  if (deletes.length > 0) s.log.info({ pods: deletes.map((p) => nameOf(p)) }, 'deleting daemon pods');
  await forEachLimited(deletes, POD_WRITE_CONCURRENCY, async (pod) => {
    try {
      if (await deletePod(s, pod)) result.wrote = true;
    } catch (err) {
      result.errors.push(err);
    }
  });
  return result;
}

async function createPods(
  s: DaemonSetSync,
  nodes: readonly string[],
  revision: ControllerRevision,
): Promise<{ created: number; errors: unknown[] }> {
  const { expectations, client, recorder } = s.d;
  const template = templateFromRevision(revision);
  const inPlaceIfPossible = s.rollout.rollingUpdateType === 'InPlaceIfPossible';
  const errors: unknown[] = [];
  let created = 0;
  let index = 0;
  const create = async (node: string): Promise<boolean> => {
    const pod = newDaemonPod({
      ds: s.ds,
      template,
      hash: s.hash,
      node,
      name: daemonPodName(nameOf(s.ds), s.random),
      inPlaceIfPossible,
    });
    expectations.expectScale(s.key, 'create', nameOf(pod));
    try {
      await client.create(pod);
    } catch (err) {
      const outcome = await createOutcome(s, pod, err);
      if (outcome === 'applied') {
        // the expectation stays: the cache will show the pod
        void recorder.normal(s.ds, REASONS.SuccessfulCreate, messages.createdPod(nameOf(pod)));
        return true;
      }
      // unknown: the expectation stays until the cache shows the pod, or times out (no second pod on the node meanwhile)
      if (outcome === 'not-applied') expectations.observeScale(s.key, 'create', nameOf(pod));
      void recorder.warning(s.ds, REASONS.FailedCreate, messages.failedCreatePod(err));
      errors.push(err);
      return false;
    }
    void recorder.normal(s.ds, REASONS.SuccessfulCreate, messages.createdPod(nameOf(pod)));
    return true;
  };
  for (const size of slowStartBatches(nodes.length)) {
    const batch = nodes.slice(index, index + size);
    index += size;
    const results: boolean[] = [];
    await forEachLimited(batch, POD_WRITE_CONCURRENCY, async (n) => {
      results.push(await create(n));
    });
    created += results.filter(Boolean).length;
    if (results.some((ok) => !ok)) break;
  }
  return { created, errors };
}

/**
 * Whether a create that failed without a clear answer (timed out, no response, a 5xx) went through all the same: the
 * pod, read back by the name this controller chose (docs/ads.md "Pod names"), is there and ours. Otherwise the next
 * round would see no pod on that node once the expectation is dropped and create a second one under another name.
 */
async function createOutcome(s: DaemonSetSync, pod: Pod, err: unknown): Promise<WriteOutcome> {
  const name = nameOf(pod);
  const ref = { ...POD, namespace: pod.metadata?.namespace, name };
  const outcome = await settleWrite(err, () => createdOnRead(s.d.client, ref, s.ds.metadata?.uid));
  if (outcome === 'applied') s.log.info({ pod: name, err }, 'a create without an answer went through');
  if (outcome === 'unknown') s.log.warn({ pod: name, err }, 'reading back a create without an answer failed');
  return outcome;
}

/** Deletes a pod on its UID; false when it was already gone. */
export async function deletePod(s: DaemonSetSync, pod: Pod): Promise<boolean> {
  const { expectations, client, recorder } = s.d;
  const name = nameOf(pod);
  try {
    if ((await deletePodExpected({ client, expectations, log: s.log }, s.key, pod)) === 'gone') return false;
  } catch (err) {
    // a PodUnavailableBudget refusal: wait for budget (docs/podunavailablebudget.md)
    if (waitedForBudget(s, err)) return false;
    void recorder.warning(s.ds, REASONS.FailedDelete, messages.failedDeletePod(name, err));
    throw err;
  }
  void recorder.normal(s.ds, REASONS.SuccessfulDelete, messages.deletedPod(name));
  return true;
}
