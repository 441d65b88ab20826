/**
 * Event reasons emitted by the in-scope OpenKruise controllers. Keep the strings exactly: users and
 * tests grep for them.
 */
export const EventReasons = {
  // pods and PVCs (CloneSet, Advanced StatefulSet, Advanced DaemonSet)
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  SuccessfulUpdate: 'SuccessfulUpdate',
  FailedUpdate: 'FailedUpdate',
  ScaleUpLimited: 'ScaleUpLimited',
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
  SuccessfulUpdatePodReCreate: 'SuccessfulUpdatePodReCreate',
  FailedUpdatePodReCreate: 'FailedUpdatePodReCreate',
  // in-place resize (docs/adr/0087-in-place-resource-resize.md; Regatta's, upstream has none)
  QoSClassChangeRecreate: 'QoSClassChangeRecreate',
  ResizeInfeasible: 'ResizeInfeasible',
  // image pre-download
  CreatedImagePullJob: 'CreatedImagePullJob',
  FailedCreateImagePullJob: 'FailedCreateImagePullJob',
  // Advanced DaemonSet
  SelectingAll: 'SelectingAll',
  FailedDaemonPod: 'FailedDaemonPod',
  // UnitedDeployment (the two with a space are spelled so upstream)
  FailedRevisionProvision: 'FailedRevisionProvision',
  FailedFindSubsets: 'FailedFindSubsets',
  FailedFindSubsetsWithSpace: 'Failed FindSubsets',
  FailedDeleteDuplicatedSubsets: 'FailedDeleteDuplicatedSubsets',
  FailedSpecifySubsetReplicas: 'Failed SpecifySubsetReplicas',
  SuccessfulUpdateSubset: 'SuccessfulUpdateSubset',
  FailedUpdateSubset: 'FailedUpdateSubset',
  // SidecarSet
  NotUpgradablePods: 'NotUpgradablePods',
  ResetContainerSucceed: 'ResetContainerSucceed',
  ResetContainerFailed: 'ResetContainerFailed',
  // NodeImage / node agent
  PullImageSucceed: 'PullImageSucceed',
  PullImageFailed: 'PullImageFailed',
} as const;

export type EventReason = (typeof EventReasons)[keyof typeof EventReasons];
