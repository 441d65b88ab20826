export * from './types.js';
export * from './job-types.js';
export { ADVANCED_CRON_JOB_CRD } from './crd.js';
export * from './cron.js';
export * from './defaults.js';
export * from './validation.js';
export * from './admission.js';
