/**
 * A PodUnavailableBudget refusal is a wait, not a failure (upstream `pkg/controller/cloneset/sync/cloneset_update.go`
 * asks pub control before an in-place update and tries again in a second when refused). In Regatta the budget is
 * the PodUnavailableBudget program's pod webhook (docs/podunavailablebudget.md): an in-place update of a guarded pod
 * (one with the `kruise.io/related-pub` annotation) is first sent as a dry run, so no readiness condition is written
 * for an update the budget refuses; a refused write is retried after `BUDGET_RETRY_MS` (libs/api). The CloneSet,
 * Advanced StatefulSet and Advanced DaemonSet in-place updates and pod deletions all wait this way.
 */
import { BUDGET_RETRY_MS, POD_GVK, PubKeys, isBudgetRefusal, type Pod } from '@regatta/api';
import { type KubeClient, updatePatch } from '@regatta/kube';

/** True when the budget refuses updating `pod` to `planned` now (a dry-run patch; guarded pods only). */
export async function budgetRefusesUpdate(
  client: Pick<KubeClient, 'patch'>,
  pod: Pod,
  planned: Pod,
): Promise<boolean> {
  if (!pod.metadata?.annotations?.[PubKeys.RelatedPub]) return false;
  try {
    await client.patch(
      { ...POD_GVK, namespace: pod.metadata.namespace, name: pod.metadata.name ?? '' },
      updatePatch(pod, planned, pod.metadata.resourceVersion),
      { type: 'json', dryRun: true },
    );
    return false;
  } catch (err) {
    if (isBudgetRefusal(err)) return true;
    return false; // anything else: the real write answers it
  }
}

/** The part of a workload round's step context a budget wait uses: its client and its requeue delays. */
export interface BudgetWaitContext {
  readonly d: { readonly client: Pick<KubeClient, 'patch'> };
  readonly delays: number[];
}

/**
 * True when the budget refuses updating `pod` to `planned` now; the round then asks to run again in
 * `BUDGET_RETRY_MS` and the caller leaves the pod as it is (no readiness condition, no event).
 */
export async function waitsForBudget(s: BudgetWaitContext, pod: Pod, planned: Pod): Promise<boolean> {
  if (!(await budgetRefusesUpdate(s.d.client, pod, planned))) return false;
  s.delays.push(BUDGET_RETRY_MS);
  return true;
}

/**
 * True when `err` is the budget's refusal of a pod write (an in-place update's first write, a deletion): a wait,
 * the round asks to run again in `BUDGET_RETRY_MS`. False: an error for the caller to report.
 */
export function waitedForBudget(s: Pick<BudgetWaitContext, 'delays'>, err: unknown): boolean {
  if (!isBudgetRefusal(err)) return false;
  s.delays.push(BUDGET_RETRY_MS);
  return true;
}
