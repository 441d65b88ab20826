/**
 * A PodUnavailableBudget refusal is a wait, not a failure, for the workloads whose pod writes it refuses: upstream's
 * CloneSet and SidecarSet ask pub control before touching a pod and try again a second later
 * (`pkg/controller/cloneset/sync/cloneset_update.go`, `pkg/controller/sidecarset/sidecarset_processor.go`). In Regatta
 * the budget is the PodUnavailableBudget program's pod webhook (docs/podunavailablebudget.md), whose refusal the
 * API server answers as a 403 naming the budget.
 */

/** How long a workload waits before it tries a refused pod write again. */
export const BUDGET_RETRY_MS = 1000;

/** The API server's 403 carrying the budget webhook's refusal (`podunavailablebudget.policy.kruise.io "…" is forbidden`). */
export function isBudgetRefusal(err: unknown): boolean {
  const e = err as { status?: unknown; message?: unknown } | undefined;
  return (
    e?.status === 403 && typeof e.message === 'string' && e.message.includes('podunavailablebudget.policy.kruise.io')
  );
}
