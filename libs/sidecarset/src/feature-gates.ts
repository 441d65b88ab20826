/** OpenKruise's feature gates the SidecarSet program reads (`pkg/features/kruise_features.go`), with their defaults. */
export const SIDECARSET_FEATURE_GATES = {
  /** Sidecar containers are sorted by name before placement (Alpha). */
  EnableSortSidecarContainerByName: false,
  /** patchPodMetadata allowed without the whitelist ConfigMap (Alpha). */
  SidecarSetPatchPodMetadataDefaultsAllowed: false,
} as const;
export type SidecarSetFeatureGates = Record<keyof typeof SIDECARSET_FEATURE_GATES, boolean>;
