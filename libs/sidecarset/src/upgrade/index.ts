// The SidecarSet upgrade controller (docs: OpenKruise `pkg/controller/sidecarset`, `pkg/control/sidecarcontrol`).
export * from './keys.js';
export type * from './types.js';
export {
  podUpdateConcerns,
  sidecarSetForRevisionChange,
  sidecarSetRevisionNamespace,
  sidecarSetsForPod,
} from './events.js';
export {
  getNextUpgradePods,
  parseUpdateScatterTerms,
  sidecarSetUpgradable,
  sortNextUpgradeIndexes,
  upgradeCount,
  type NextUpgradePods,
} from './next-upgrade.js';
export {
  hotUpgradeContainers,
  isPodInHotUpgrading,
  isPodSidecarUpdated,
  isPodStateConsistent,
  isSidecarContainerUpdateCompleted,
  isSidecarPodReady,
  podHashEntries,
  sidecarContainersInPod,
  type SidecarInPlaceUpdateState,
} from './pod-state.js';
export { resetIdleTwins, upgradableCondition, upgradePodSidecars } from './pod-upgrade.js';
export {
  DEFAULT_SIDECARSET_HISTORY_LIMIT,
  SIDECARSET_GVK,
  newSidecarSetRevision,
  revisionsToDelete,
  sidecarSetRevisionData,
} from './revisions.js';
export { calculateStatus, matchingPods, statusChanged } from './status.js';
export { SidecarSetUpgradeReconciler, type SidecarSetUpgradeReconcilerDeps } from './reconciler.js';
export type { SidecarSetUpgradeDeps } from './sync/context.js';
