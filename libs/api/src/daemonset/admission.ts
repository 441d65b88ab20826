/**
 * The two calls a DaemonSet admission webhook makes (OpenKruise `pkg/webhook/daemonset/mutating` and `validating`):
 * which version's rules apply comes from the request's resource version (`request.resource.version`), as upstream
 * decodes the object into that version's Go type.
 */
import type { FieldError } from '@regatta/kube';
import { defaultDaemonSet } from './defaults.js';
import { validateDaemonSetUpdate } from './update-validation.js';
import { validateDaemonSet } from './validation.js';
import type { DaemonSetVersion } from './version.js';

/** The version named by an admission request's `resource.version`; undefined for a version Regatta does not serve. */
export function daemonSetRequestVersion(resourceVersion: string | undefined): DaemonSetVersion | undefined {
  return resourceVersion === 'v1alpha1' || resourceVersion === 'v1beta1' ? resourceVersion : undefined;
}

/** The mutating webhook (CREATE and UPDATE): the defaulted object, to be answered as a JSON patch. */
export function defaultDaemonSetForAdmission<T>(obj: T, version: DaemonSetVersion): T {
  return defaultDaemonSet(obj, version);
}

export interface DaemonSetAdmission {
  operation: 'CREATE' | 'UPDATE';
  object: unknown;
  /** The stored object (UPDATE). */
  oldObject?: unknown;
  version: DaemonSetVersion;
}

/** The validating webhook: every CREATE rule, plus the immutable fields on UPDATE; empty when allowed. */
export function validateDaemonSetAdmission(req: DaemonSetAdmission): FieldError[] {
  return req.operation === 'UPDATE' && req.oldObject !== undefined
    ? validateDaemonSetUpdate(req.object, req.oldObject, { version: req.version })
    : validateDaemonSet(req.object, { version: req.version });
}
