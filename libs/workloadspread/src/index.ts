export * from './matched.js';
export * from './subset-choice.js';
export { injectSubset } from './inject.js';
export { subsetForExistingPod, existingPodMetadataPatch } from './existing-pods.js';
export * from './status.js';
export * from './deletion-cost.js';
export * from './target.js';
export * from './pod-webhook-configuration.js';
export { workloadSpreadPodDefaulter, STATUS_WRITE_ATTEMPTS, type PodWebhookDeps } from './pod-webhook.js';
export * from './webhooks.js';
export { workloadSpreadWebhooks, type WorkloadSpreadWebhookContext } from './program.js';
export { WorkloadSpreadReconciler, type WorkloadSpreadReconcilerDeps } from './reconciler.js';
export { spreadsForPodChange, spreadsForWorkloadChange, isWorkloadPod, podChangeMatters, workloadChangeMatters } from './handlers.js';
export { PLACE_SPAN_NAME } from './trace.js';

/** The controller / event component name (`pkg/controller/workloadspread`). */
export { WORKLOAD_SPREAD_CONTROLLER_NAME as CONTROLLER_NAME } from '@regatta/api';
/** Feature gates the program reads: `WorkloadSpread` (default on: off, the program places nothing). */
export const WORKLOADSPREAD_FEATURE_GATES = { WorkloadSpread: true } as const;
