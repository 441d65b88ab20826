/**
 * The pure admission entries the Advanced StatefulSet webhooks call (the handlers themselves, with HTTP and
 * AdmissionReview, live with the controller, as CloneSet's do in libs/cloneset). Both versions, `v1beta1` and the
 * deprecated `v1alpha1`, are served with one schema (see `crd.ts`), so one validator serves both.
 */
import { type FieldError, isPlainObject } from '@regatta/kube';
import { Labels } from '../well-known-keys.js';
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

/**
 * Workload deletion protection on DELETE (`pkg/webhook/util/deletionprotection`, gate `ResourcesDeletionProtection`,
 * default off): with the label `policy.kruise.io/delete-protection` `Always` the deletion is refused; with `Cascading`
 * while `spec.replicas` > 0. The reason to answer 403 with, or undefined when the deletion may go on. Any JSON.
 */
export function statefulSetDeletionProblem(old: unknown, gates: { resourcesDeletionProtection?: boolean } = {}): string | undefined {
  if (!gates.resourcesDeletionProtection || !isPlainObject(old)) return undefined;
  const meta = isPlainObject(old['metadata']) ? old['metadata'] : {};
  if (meta['deletionTimestamp'] != null) return undefined;
  const labels = isPlainObject(meta['labels']) ? meta['labels'] : {};
  const key = Labels.DeleteProtection;
  const value = labels[key];
  if (value === 'Always') return `forbidden by ResourcesProtectionDeletion for ${key}=${value}`;
  const spec = isPlainObject(old['spec']) ? old['spec'] : {};
  const replicas = spec['replicas'];
  if (value === 'Cascading' && typeof replicas === 'number' && replicas > 0) {
    return `forbidden by ResourcesProtectionDeletion for ${key}=${value} and replicas ${replicas}>0`;
  }
  return undefined;
}
