/**
 * The pure admission entries the Advanced StatefulSet webhooks call (the handlers themselves, with HTTP and
 * AdmissionReview, live with the controller, as CloneSet's do in libs/cloneset). Both versions, `v1beta1` and the
 * deprecated `v1alpha1`, are served with one schema (see `crd.ts`), so one validator serves both.
 */
import { type FieldError } from '@regatta/kube';
import { defaultStatefulSetForAdmission, type StatefulSetAdmissionDefaultingOptions } from './defaults.js';
import type { StatefulSet } from './types.js';
import { type StatefulSetValidationContext, validateStatefulSetUpdate } from './update-validation.js';
import { validateStatefulSet } from './validation.js';

/** The part of an AdmissionRequest the validators read. */
export interface StatefulSetAdmission {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT' | (string & {});
  /** The new object (CREATE, UPDATE); any JSON. */
  object?: unknown;
  /** The stored object (UPDATE, DELETE); any JSON. */
  oldObject?: unknown;
}

/**
 * The validating webhook's verdict as field errors: CREATE → `validateStatefulSet`, UPDATE → `validateStatefulSetUpdate`
 * (CREATE rules when the old object is missing), anything else → none. Empty means allowed; otherwise answer 422
 * with these errors as causes. Never throws.
 */
export function statefulSetAdmissionErrors(req: StatefulSetAdmission, ctx: StatefulSetValidationContext = {}): FieldError[] {
  if (req.operation === 'CREATE') return validateStatefulSet(req.object);
  if (req.operation === 'UPDATE') {
    return req.oldObject == null ? validateStatefulSet(req.object) : validateStatefulSetUpdate(req.object, req.oldObject, ctx);
  }
  return [];
}

/**
 * The mutating webhook's result: the defaulted object for CREATE and UPDATE (the webhook server answers with the JSON
 * patch from the request's object to it), `undefined` (no change) otherwise.
 */
export function statefulSetAdmissionDefaults<T extends StatefulSet>(
  req: { operation: StatefulSetAdmission['operation']; object?: T | null; oldObject?: StatefulSet | null },
  options: StatefulSetAdmissionDefaultingOptions = {},
): T | undefined {
  if (!req.object || (req.operation !== 'CREATE' && req.operation !== 'UPDATE')) return undefined;
  return defaultStatefulSetForAdmission(req.object, req.operation === 'UPDATE' ? (req.oldObject ?? undefined) : undefined, options);
}

