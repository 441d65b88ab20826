import { RESOURCE_DISTRIBUTION_GATE } from '@regatta/api';

/**
 * The gate the ResourceDistribution program reads (`pkg/features/kruise_features.go`). OpenKruise defaults it off;
 * Regatta ships the controller on (docs/resourcedistribution.md): `REGATTA_FEATURE_GATES=ResourceDistributionGate=false`
 * stops the controller and makes the webhook answer OpenKruise's 403.
 */
export const RESOURCE_DISTRIBUTION_FEATURE_GATES = { [RESOURCE_DISTRIBUTION_GATE]: true } as const;
export type ResourceDistributionFeatureGates = Record<keyof typeof RESOURCE_DISTRIBUTION_FEATURE_GATES, boolean>;
