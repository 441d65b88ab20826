export { CONTROLLER_NAME } from './controller-name.js';
export { sidecarSetsForPodChange } from './pods-for-sidecarset.js';
// the upgrade controller (libs/sidecarset/src/upgrade, branch scs-upgrade)
export * from './upgrade/index.js';
