/** Pod keys the SidecarSet upgrade controller reads and writes (OpenKruise `pkg/control/sidecarcontrol/api.go`). */
import { SIDECARSET_UPGRADABLE_CONDITION, SidecarSetAnnotations, SidecarSetLabels } from '@regatta/api';

export const SIDECARSET_HASH_KEY = SidecarSetAnnotations.Hash;
export const SIDECARSET_HASH_WITHOUT_IMAGE_KEY = SidecarSetAnnotations.HashWithoutImage;
export const SIDECARSET_LIST_KEY = SidecarSetAnnotations.InjectedList;
export const SIDECARSET_INPLACE_UPDATE_STATE_KEY = SidecarSetAnnotations.InPlaceUpdateState;
export const WORKING_HOT_UPGRADE_CONTAINER_KEY = SidecarSetAnnotations.WorkingHotUpgradeContainer;
export const SIDECARSET_NAME_LABEL = SidecarSetLabels.SidecarSetName;
export const SIDECARSET_CUSTOM_VERSION_LABEL = SidecarSetLabels.CustomVersion;
export const versionKey = (container: string): string => `${SidecarSetAnnotations.VersionPrefix}${container}`;
export const versionAltKey = (container: string): string =>
  `${SidecarSetAnnotations.VersionAltPrefix}${container}`;

/** Pod condition telling, per SidecarSet, whether its sidecars can be upgraded in place. */
export const SIDECARSET_UPGRADABLE = SIDECARSET_UPGRADABLE_CONDITION;
export const ALL_UPGRADABLE_REASON = 'AllSidecarsetUpgradable';
export const UPDATE_IMMUTABLE_FIELD_REASON = 'UpdateImmutableField';

/** Event reasons (OpenKruise `pkg/controller/sidecarset`). */
export const NOT_UPGRADABLE_PODS_REASON = 'NotUpgradablePods';
export const RESET_CONTAINER_SUCCEED_REASON = 'ResetContainerSucceed';
export const RESET_CONTAINER_FAILED_REASON = 'ResetContainerFailed';
