/**
 * The budget's feature gates, with upstream's defaults (`pkg/features/kruise_features.go`): deletions and evictions
 * guarded by default, in-place updates only when asked.
 */
export const PUB_FEATURE_GATES = {
  PodUnavailableBudgetDeleteGate: true,
  PodUnavailableBudgetUpdateGate: false,
} as const;

/** `source.component` of the controller's Events (upstream's controller name). */
export const CONTROLLER_NAME = 'podunavailablebudget-controller';
