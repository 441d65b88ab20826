export * from './types.js';
export { BROADCAST_JOB_CRD } from './crd.js';
export * from './defaults.js';
export * from './validation.js';
export * from './admission.js';
