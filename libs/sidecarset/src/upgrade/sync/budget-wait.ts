/**
 * A PodUnavailableBudget refusal of a sidecar upgrade is a wait, not a failure (upstream
 * `pkg/controller/sidecarset/sidecarset_processor.go` asks pub control before each pod and tries again later): the
 * budget program's pod webhook refuses the pod update with a 403 naming the budget (docs/podunavailablebudget.md).
 */
export const BUDGET_RETRY_MS = 1000;

/** The API server's 403 carrying the budget webhook's refusal (`podunavailablebudget.policy.kruise.io "…" is forbidden`). */
export function isBudgetRefusal(err: unknown): boolean {
  const e = err as { status?: unknown; message?: unknown } | undefined;
  return (
    e?.status === 403 &&
    typeof e.message === 'string' &&
    e.message.includes('podunavailablebudget.policy.kruise.io')
  );
}
