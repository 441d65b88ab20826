export * from './eligibility.js';
export * from './pods.js';
export * from './plan.js';
export { BroadcastJobReconciler, POD_WRITE_CONCURRENCY, type BroadcastJobReconcilerDeps } from './reconciler.js';
export { JobTraces, JOB_SPAN_NAME, POD_SPAN_NAME, podEndTime } from './trace.js';
export { BROADCAST_JOB_OWNER, isBroadcastJobPod, jobsForNodeChange, nodeChangeMatters } from './handlers.js';
export * from './webhooks.js';
export { specProblem } from './spec-guard.js';

/** The controller / event component name (`pkg/controller/broadcastjob`). */
export { BROADCAST_JOB_CONTROLLER_NAME as CONTROLLER_NAME } from '@regatta/api';
/** Feature gates the program reads: `TemplateNoDefaults` (the webhook's template defaults). */
export const BROADCASTJOB_FEATURE_GATES = { TemplateNoDefaults: false } as const;
