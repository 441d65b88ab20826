export * from './types.js';
export { WORKLOAD_SPREAD_CRD } from './crd.js';
export * from './validation.js';
