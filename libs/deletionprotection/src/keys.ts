/** `source.component` of the program's Events. */
export const CONTROLLER_NAME = 'deletionprotection-controller';

/**
 * The gates the program reads (upstream `pkg/features/kruise_features.go`, same defaults): `ResourcesDeletionProtection`
 * (Beta, off) turns the whole feature on — the ValidatingAdmissionPolicies are installed and the webhook registered
 * only with it; `DeletionProtectionForCRDCascadingGate` (Alpha, off) lets `Cascading` on a CRD count its objects
 * (off, such a deletion is refused, as upstream; upstream also forces it off with the first gate off).
 */
export const DELETION_PROTECTION_FEATURE_GATES = {
  ResourcesDeletionProtection: false,
  DeletionProtectionForCRDCascadingGate: false,
} as const;
export type DeletionProtectionGate = keyof typeof DELETION_PROTECTION_FEATURE_GATES;

/** The effective gates: the CRD gate only counts with the feature on (upstream `SetDefaultsFeatureGates`). */
export function effectiveGates(gates: Readonly<Record<DeletionProtectionGate, boolean>>): {
  enabled: boolean;
  crdCascading: boolean;
} {
  return {
    enabled: gates.ResourcesDeletionProtection,
    crdCascading: gates.ResourcesDeletionProtection && gates.DeletionProtectionForCRDCascadingGate,
  };
}
