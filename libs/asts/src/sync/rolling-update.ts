/**
 * Rolling update (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `rollingUpdateStatefulsetPods`,
 * `inPlaceUpdatePod`): refresh every pod (stop if a lifecycle state was written), then — unless paused — delete the
 * specified-deleted pods and update the pods of the update order within `maxUnavailable`: in place where the
 * template change allows (`InPlaceIfPossible` / `InPlaceOnly`, through the lifecycle's inPlaceUpdate hook), else by
 * deleting the pod (the replicas step recreates it at the update revision). With the Parallel policy, pods are
 * refreshed, deleted and updated up to POD_WRITE_CONCURRENCY at a time (each pod's writes in order); OrderedReady keeps
 * one pod write in flight. The budget is the plan's: at most maxUnavailable pods are chosen, whatever the concurrency.
 */
import { resizeMessages } from '@regatta/inplace-update';
import { EventReasons } from '@regatta/kube';
import {
  LifecycleState,
  type Pod,
  getPodLifecycleState,
  inPlaceUpdateStep,
  setPodLifecycle,
} from '@regatta/lifecycle';
import { type ControllerRevision, podRevision } from '@regatta/revision';
import { POD_WRITE_CONCURRENCY, forEachLimited } from '@regatta/runtime';
import { waitedForBudget, waitsForBudget } from '@regatta/workload';
import { InPlaceOnlyError } from '../errors.js';
import { messages } from '../events.js';
import { maxUnavailableOf, planRollingUpdate, sortPodsToUpdate, unavailablePods } from '../planning/index.js';
import { type PodManagementPolicy, minReadySecondsOf, nameOf } from '../statefulset-object.js';
import { claimMismatch, claimsView, resizePodClaims, resizesClaimsOnRollingUpdate } from './claim-resize.js';
import type { AstsSync } from './context.js';
import { deletePod } from './pod-control.js';
import { refreshPod } from './refresh.js';

export interface RollingUpdateInput {
  pods: readonly Pod[];
  slots: readonly (Pod | undefined)[];
  revisions: readonly ControllerRevision[];
  updateRevision: ControllerRevision;
}

export async function rollingUpdateStep(s: AstsSync, input: RollingUpdateInput): Promise<void> {
  const updateName = nameOf(input.updateRevision);
  const limit = writeConcurrency(s.spec.podManagementPolicy);
  let modified = false;
  await forEachLimited(input.pods, limit, async (pod) => {
    if (await refreshPod(s, pod, updateName)) modified = true;
  });
  // as upstream: a round that wrote a lifecycle state decides its updates on the next, fresher cache
  if (modified) return;

  const ru = s.spec.updateStrategy?.rollingUpdate;
  if (ru?.paused) return;
  const maxUnavailable = ru ? maxUnavailableOf(ru.maxUnavailable, s.spec.replicas) : 1;
  const claims = resizesClaimsOnRollingUpdate(s) ? claimsView(s) : undefined;
  const { names, waitMs } = unavailablePods(input.slots, minReadySecondsOf(s.spec), s.now(), claims);
  if (waitMs > 0) s.delays.push(waitMs);
  const order = sortPodsToUpdate(
    {
      partition: ru?.partition ?? 0,
      replicas: s.spec.replicas,
      unordered: Boolean(ru?.unorderedUpdate),
      priorityStrategy: ru?.unorderedUpdate?.priorityStrategy ?? null,
      updateRevision: updateName,
      preparingUpdateAsUpdate: s.gates.PreparingUpdateAsUpdate,
    },
    input.slots,
  );
  const plan = planRollingUpdate(input.slots, order, updateName, maxUnavailable, names, claims);
  const podsAt = (indexes: readonly number[]): Pod[] =>
    indexes.map((i) => input.slots[i]).filter((p): p is Pod => p !== undefined);
  await forEachLimited(podsAt(plan.specifiedDeletes), limit, async (pod) => {
    await deletePod(s, pod);
  });
  // claims first, one pod after the other: a class that cannot expand stops the round before any pod update
  for (const pod of podsAt(plan.resizes)) await resizePodClaims(s, pod);
  await forEachLimited(podsAt(plan.updates), limit, async (pod) => {
    const inPlace = await inPlaceUpdatePod(s, pod, input.updateRevision, input.revisions);
    if (!inPlace) await deletePod(s, pod);
  });
  const mismatched = plan.mismatch === undefined ? undefined : input.slots[plan.mismatch];
  if (mismatched) throw claimMismatch(s, mismatched);
}

/** Pod writes in flight at once: OrderedReady one pod at a time, Parallel up to POD_WRITE_CONCURRENCY. */
export function writeConcurrency(policy: PodManagementPolicy): number {
  return policy === 'Parallel' ? POD_WRITE_CONCURRENCY : 1;
}

/** `inPlaceUpdatePod`: true when the pod is being updated in place (or waits for its hook), false to recreate. */
async function inPlaceUpdatePod(
  s: AstsSync,
  pod: Pod,
  target: ControllerRevision,
  revisions: readonly ControllerRevision[],
): Promise<boolean> {
  const ru = s.spec.updateStrategy?.rollingUpdate;
  const policy = ru?.podUpdatePolicy ?? 'ReCreate';
  if (!ru || (policy !== 'InPlaceIfPossible' && policy !== 'InPlaceOnly')) return false;
  const name = nameOf(pod);
  const targetName = nameOf(target);
  const lifecycle = s.spec.lifecycle ?? null;
  const old = revisions.find((r) => nameOf(r) === podRevision(pod));
  const now = s.now();
  const state = getPodLifecycleState(pod);
  const options = {
    now,
    gracePeriodSeconds: ru.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0,
    envFromMetadata: s.gates.InPlaceUpdateEnvFromMetadata,
    verticalScaling: s.gates.InPlaceWorkloadVerticalScaling && (await s.inPlace.resizeServed()),
    ignoreVolumeClaimTemplatesHashDiff: true,
    // the default revision adapter: controller-revision-hash only
    writeRevision: (p: Pod, revision: string): Pod => ({
      ...p,
      metadata: {
        ...p.metadata,
        labels: { ...(p.metadata?.labels ?? {}), 'controller-revision-hash': revision },
      },
    }),
    // a pod without a lifecycle state stays without one
    additional: state === '' ? [] : [(p: Pod) => setPodLifecycle(p, LifecycleState.Updating, now)],
  };
  const plan = s.inPlace.plan(pod, old, target, options);
  if (plan.inPlace) {
    const step = inPlaceUpdateStep(pod, lifecycle);
    if (step.action === 'wait') return true;
    if (step.action === 'prepareUpdate') {
      await s.lifecycle.transition(pod, LifecycleState.PreparingUpdate, {
        markPodNotReady: step.markPodNotReady,
      });
      return true;
    }
    if (step.action === 'rehook') {
      await s.lifecycle.transition(pod, LifecycleState.PreparingUpdate, {
        rehook: lifecycle?.inPlaceUpdate ?? null,
      });
      return true;
    }
    // a PodUnavailableBudget that refuses now: wait for budget (docs/podunavailablebudget.md)
    if (await waitsForBudget(s, pod, plan.pod)) return true;
    try {
      const result = await s.inPlace.update(pod, old, target, options);
      if (!result.updated && result.notInPlace.reason === 'ResizeRefused') {
        // the API server refused the resize (beyond the node's allocatable): reported (event, condition), the pod
        // is kept as it is
        s.resizeRefused.set(name, result.notInPlace.message);
        void s.d.recorder.warning(
          s.set,
          EventReasons.ResizeInfeasible,
          resizeMessages.infeasible(name, result.notInPlace.message),
        );
        return true;
      }
      if (!result.updated) return policy === 'InPlaceOnly' ? fail(name) : false;
      if (result.delayMs > 0) s.delays.push(result.delayMs);
    } catch (err) {
      if (waitedForBudget(s, err)) return true;
      void s.d.recorder.warning(
        s.set,
        EventReasons.FailedUpdatePodInPlace,
        messages.failedUpdateInPlace(name, targetName, err),
      );
      throw err;
    }
    void s.d.recorder.normal(
      s.set,
      EventReasons.SuccessfulUpdatePodInPlace,
      messages.updatedInPlace(name, targetName),
    );
    if (state === LifecycleState.PreparingUpdate) s.traces.hookWait(s.record, pod, 'inPlaceUpdate');
    return true;
  }
  if (plan.reason === 'QoSClassChanged')
    void s.d.recorder.normal(
      s.set,
      EventReasons.QoSClassChangeRecreate,
      resizeMessages.qosRecreate(name, plan.message),
    );
  if (policy === 'InPlaceOnly') return fail(name);
  s.log.debug({ pod: name, reason: plan.reason }, 'cannot update in place; recreating');
  return false;
}

function fail(name: string): never {
  throw new InPlaceOnlyError(messages.inPlaceOnlyImpossible(name));
}
