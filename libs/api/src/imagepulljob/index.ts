export * from './types.js';
export { IMAGE_PULL_JOB_CRD } from './crd.js';
