// Small helpers the CloneSet scenario files share: the keys OpenKruise's CloneSet sets on pods, and (from
// @regatta/testing, re-exported so a scenario file imports from one place) readers of what a pod shows, a
// "nothing happens" window, and a pod recorder.
export {
  conditionOf,
  containerStatus,
  holds,
  LIFECYCLE_STATE as STATE,
  nameOf,
  recordPods,
  sleep,
  stateOf,
  uidOf,
  type PodRecorder,
} from '@regatta/testing';

export const REVISION = 'controller-revision-hash';
export const INSTANCE_ID = 'apps.kruise.io/cloneset-instance-id';
export const INPLACE_STATE = 'apps.kruise.io/inplace-update-state';
export const INPLACE_GRACE = 'apps.kruise.io/inplace-update-grace';
export const RUNTIME_META = 'apps.kruise.io/runtime-containers-meta';
export const SPECIFIED_DELETE = 'apps.kruise.io/specified-delete';
export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
