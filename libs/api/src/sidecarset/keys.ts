/**
 * SidecarSet keys (OpenKruise `pkg/control/sidecarcontrol/util.go`, `apis/apps/v1alpha1/sidecarset_types.go`,
 * `apis/apps/v1alpha1/sidecarset_conversion.go`): the annotations, labels, env vars and condition the SidecarSet
 * webhook and controller write, in one place for the api, webhook and controller code.
 */
import { Annotations } from '../well-known-keys.js';

export const SidecarSetAnnotations = {
  /** On a SidecarSet: its containers' hash; on a pod: JSON map sidecarSetName → {hash, sidecarList, …}. */
  Hash: Annotations.SidecarSetHash,
  /** Same, with every image blanked (an image-only change keeps it; decides in-place upgradability). */
  HashWithoutImage: 'kruise.io/sidecarset-hash-without-image',
  /** On a pod: comma-joined sorted names of the SidecarSets injected. */
  InjectedList: 'kruise.io/sidecarset-injected-list',
  /** On a pod: JSON map sidecarSetName → {revision, updateTimestamp, lastContainerStatuses}. */
  InPlaceUpdateState: 'kruise.io/sidecarset-inplace-update-state',
  /** On a pod: JSON map sidecar name → working hot-upgrade twin (`<name>-1` / `<name>-2`). */
  WorkingHotUpgradeContainer: 'kruise.io/sidecarset-working-hotupgrade-container',
  /** Prefix: `version.sidecarset.kruise.io/<container>` (hot-upgrade twin version, env SIDECARSET_VERSION). */
  VersionPrefix: 'version.sidecarset.kruise.io/',
  /** Prefix: `versionalt.sidecarset.kruise.io/<container>` (the other twin's version, env SIDECARSET_VERSION_ALT). */
  VersionAltPrefix: 'versionalt.sidecarset.kruise.io/',
  /** On a v1beta1 canary SidecarSet: `"true"`. */
  Canary: 'apps.kruise.io/sidecarset-canary',
  /** On a v1beta1 canary SidecarSet: the name of the base SidecarSet it overrides (immutable). */
  Base: 'apps.kruise.io/sidecarset-base',
} as const;

export const SidecarSetLabels = {
  /** On a ControllerRevision: the owning SidecarSet. */
  SidecarSetName: 'kruise.io/sidecarset-name',
  /** On a SidecarSet (v1alpha1's form of `spec.customVersion`) and on its revisions. */
  CustomVersion: 'apps.kruise.io/sidecarset-custom-version',
  /** Namespace label set by Kubernetes; v1alpha1 `spec.namespace` becomes a namespaceSelector on it. */
  NamespaceName: 'kubernetes.io/metadata.name',
} as const;

export const SidecarSetEnvs = {
  IsInjected: 'IS_INJECTED',
  SidecarSetVersion: 'SIDECARSET_VERSION',
  SidecarSetVersionAlt: 'SIDECARSET_VERSION_ALT',
} as const;

/** The pod condition the controller writes for pods it cannot upgrade in place. */
export const SIDECARSET_UPGRADABLE_CONDITION = 'SidecarSetUpgradable';
