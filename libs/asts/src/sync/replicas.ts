/**
 * The replicas step (OpenKruise `pkg/controller/statefulset/stateful_set_control.go` `processReplica` with
 * `runForAllWithBreak`): each slot in ascending ordinal order — replace finished pods, create missing ones (claims
 * first), create missing claims of pending pods, wait for terminating or unavailable pods, fix identity, storage and
 * claim references. OrderedReady stops the reconcile at the first pod it must wait for; Parallel goes on, within
 * `scaleStrategy.maxUnavailable` when set.
 */
import { type Pod, isPodAllHooked, setPodLifecycle } from '@regatta/lifecycle';
import { errText, messages } from '../events.js';
import {
  identityMatches,
  initialState,
  isCreated,
  isFailedOrSucceeded,
  isTerminating,
  runningAndAvailable,
  storageMatches,
} from '../planning/index.js';
import { minReadySecondsOf } from '../statefulset-object.js';
import type { AstsSync } from './context.js';
import {
  claimIsStale,
  claimsMatchPolicy,
  createMissingClaims,
  createPod,
  deletePod,
  updatePodIdentity,
} from './pod-control.js';
import { refreshPod } from './refresh.js';

export interface ReplicasOutcome {
  /** OrderedReady waits: nothing more this round (the status is still written). */
  exit: boolean;
  err?: unknown;
}

type Step = 'next' | 'break' | 'exit';

export async function replicasStep(
  s: AstsSync,
  slots: readonly (Pod | undefined)[],
  updateRevision: string,
  scaleBudget: number | undefined,
): Promise<ReplicasOutcome> {
  const monotonic = s.spec.podManagementPolicy !== 'Parallel';
  const budget = { left: scaleBudget };
  // `decreaseAndCheckMaxUnavailable`: true when the budget is used up
  const spend = () => {
    if (budget.left === undefined) return false;
    budget.left--;
    return budget.left <= 0;
  };
  for (const pod of slots) {
    if (!pod) continue;
    let step: Step;
    try {
      step = await processReplica(s, pod, monotonic, spend, budget.left !== undefined, updateRevision);
    } catch (err) {
      return { exit: true, err };
    }
    if (step === 'break') break;
    if (step === 'exit' && monotonic) return { exit: true };
  }
  return { exit: false };
}

async function processReplica(
  s: AstsSync,
  pod: Pod,
  monotonic: boolean,
  spend: () => boolean,
  budgeted: boolean,
  updateRevision: string,
): Promise<Step> {
  const now = s.now();
  if (isFailedOrSucceeded(pod)) {
    if (spend()) return 'break';
    if (!isTerminating(pod)) await deletePod(s, pod);
    return 'exit';
  }
  if (!isCreated(pod)) {
    if (claimIsStale(s, pod)) return 'exit';
    const preNormal = s.spec.lifecycle?.preNormal;
    const state = initialState(preNormal ? isPodAllHooked(preNormal, pod) : true, Boolean(preNormal));
    try {
      await createPod(s, setPodLifecycle(pod, state, now));
    } catch (err) {
      s.failures.push({ type: 'FailedCreatePod', message: messages.failedCreateCondition(err) });
      throw err;
    }
    if (monotonic) return 'exit';
    return spend() ? 'break' : 'next';
  }
  if (pod.status?.phase === 'Pending') await createMissingClaims(s, pod);
  if (isTerminating(pod)) {
    if (monotonic) return 'exit';
    if (spend()) return 'break';
  }
  await refreshPod(s, pod, updateRevision);
  if (monotonic || budgeted) {
    const a = runningAndAvailable(pod, minReadySecondsOf(s.spec), now);
    if (!a.available) {
      if (a.waitMs > 0) s.delays.push(a.waitMs);
      if (monotonic) return 'exit';
      if (spend()) return 'break';
    }
  }
  if (identityMatches(s.set, pod) && storageMatches(s.set, pod) && claimsMatchPolicy(s, pod, false))
    return 'next';
  try {
    await updatePodIdentity(s, pod);
  } catch (err) {
    s.failures.push({ type: 'FailedUpdatePod', message: messages.failedUpdateCondition(err) });
    s.log.warn({ pod: pod.metadata?.name, err: errText(err) }, 'could not fix the pod identity');
    throw err;
  }
  return 'next';
}
