/**
 * A PodUnavailableBudget refusal is a wait, not a failure (upstream `pkg/controller/cloneset/sync/cloneset_update.go`
 * asks pub control before an in-place update and tries again in a second when refused). In Regatta the budget is
 * the PodUnavailableBudget program's pod webhook (docs/podunavailablebudget.md): an in-place update of a guarded pod
 * (one with the `kruise.io/related-pub` annotation) is first sent as a dry run, so no readiness condition is written
 * for an update the budget refuses; a refused write is retried after `BUDGET_RETRY_MS` (libs/api).
 */
import { POD_GVK, PubKeys, isBudgetRefusal, type Pod } from '@regatta/api';
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
