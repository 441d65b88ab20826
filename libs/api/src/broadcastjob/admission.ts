/**
 * The two calls a BroadcastJob admission webhook makes (OpenKruise `pkg/webhook/broadcastjob/mutating` and
 * `validating`); both versions have the same fields and rules.
 */
import type { FieldError } from '@regatta/kube';
import { defaultBroadcastJobForAdmission, type BroadcastJobAdmissionDefaultingOptions } from './defaults.js';
import { validateBroadcastJob } from './validation.js';

export interface BroadcastJobAdmission {
  operation: 'CREATE' | 'UPDATE';
  object: unknown;
  /** The stored object (UPDATE). */
  oldObject?: unknown;
}

/** The mutating webhook: the defaulted object, to be answered as a JSON patch. */
export function broadcastJobAdmissionDefaults<T>(
  req: { operation: BroadcastJobAdmission['operation']; object: T; oldObject?: unknown },
  options: BroadcastJobAdmissionDefaultingOptions = {},
): T {
  return defaultBroadcastJobForAdmission(req.object, req.operation === 'UPDATE' ? req.oldObject : undefined, options);
}

/** The validating webhook: empty when allowed. */
export function validateBroadcastJobAdmission(req: BroadcastJobAdmission): FieldError[] {
  return validateBroadcastJob(req.object);
}
