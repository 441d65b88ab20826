/**
 * The two calls an AdvancedCronJob admission webhook makes (OpenKruise `pkg/webhook/advancedcronjob/mutating` and
 * `validating`); both versions have the same fields and rules.
 */
import type { FieldError } from '@regatta/kube';
import { defaultAdvancedCronJobForAdmission, type AdvancedCronJobAdmissionDefaultingOptions } from './defaults.js';
import { validateAdvancedCronJob, validateAdvancedCronJobUpdate } from './validation.js';

export interface AdvancedCronJobAdmission {
  operation: 'CREATE' | 'UPDATE';
  object: unknown;
  /** The stored object (UPDATE). */
  oldObject?: unknown;
}

/** The mutating webhook: the defaulted object, to be answered as a JSON patch. */
export function advancedCronJobAdmissionDefaults<T>(
  req: { operation: AdvancedCronJobAdmission['operation']; object: T; oldObject?: unknown },
  options: AdvancedCronJobAdmissionDefaultingOptions = {},
): T {
  return defaultAdvancedCronJobForAdmission(req.object, req.operation === 'UPDATE' ? req.oldObject : undefined, options);
}

/** The validating webhook: empty when allowed. */
export function validateAdvancedCronJobAdmission(req: AdvancedCronJobAdmission): FieldError[] {
  return req.operation === 'UPDATE' && req.oldObject !== undefined
    ? validateAdvancedCronJobUpdate(req.object, req.oldObject)
    : validateAdvancedCronJob(req.object);
}
