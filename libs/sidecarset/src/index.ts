export { CONTROLLER_NAME } from './controller-name.js';
export { sidecarSetsForPodChange } from './pods-for-sidecarset.js';
