export * from './types.js';
export { CONTAINER_RECREATE_REQUEST_CRD } from './crd.js';
export { defaultCrr, injectPod, isPodActive, validateCrrSpec, validateCrrUpdate } from './validation.js';
