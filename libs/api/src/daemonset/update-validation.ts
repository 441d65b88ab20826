/**
 * DaemonSet UPDATE validation (OpenKruise `validateDaemonSetUpdate` / `validateDaemonSetUpdateV1beta1` in
 * `pkg/webhook/daemonset/validating/daemonset_create_update_handler.go`):
 *
 * - only `burstReplicas`, `template`, `lifecycle`, `updateStrategy`, `minReadySeconds`, `revisionHistoryLimit` (and
 *   `scaleStrategy` in v1beta1) may change, so the selector is immutable → `spec: Forbidden`;
 * - then every CREATE rule.
 *
 * Objects are compared as Go would after decoding them: null members and empty lists / maps count as absent. Any
 * JSON value is accepted for either object (type errors of the new one are reported with their paths; an old object
 * that is not a JSON object counts as empty).
 */
import { type FieldError, fieldErrors, fieldPath, jsonEqual } from '@regatta/kube';
import { asObject } from '../core/shape.js';
import { withoutEmpty } from '../cloneset/update-validation.js';
import { daemonSetShapeErrors } from './shape.js';
import { type DaemonSetValidationOptions, validateDaemonSet } from './validation.js';
import { daemonSetVersionOf } from './version.js';

/** Spec fields an update may change (v1beta1; v1alpha1 has no `scaleStrategy`). */
export const DAEMONSET_MUTABLE_SPEC_FIELDS = [
  'burstReplicas',
  'template',
  'lifecycle',
  'scaleStrategy',
  'updateStrategy',
  'minReadySeconds',
  'revisionHistoryLimit',
] as const;

const specOf = (ds: unknown): Record<string, unknown> | undefined => asObject(asObject(ds)?.['spec']);

/** UPDATE: the rule above followed by the CREATE rules; empty when the update is allowed. */
export function validateDaemonSetUpdate(ds: unknown, old: unknown, options: DaemonSetValidationOptions = {}): FieldError[] {
  const typeErrors = daemonSetShapeErrors(ds);
  if (typeErrors.length > 0) return typeErrors;
  const version = options.version ?? daemonSetVersionOf(ds);
  const errs: FieldError[] = [];
  const frozen = (spec: Record<string, unknown> | undefined): unknown => {
    const rest: Record<string, unknown> = { ...(spec ?? {}) };
    for (const k of DAEMONSET_MUTABLE_SPEC_FIELDS) delete rest[k];
    return withoutEmpty(rest) ?? {};
  };
  if (!jsonEqual(frozen(specOf(ds)), frozen(specOf(old)))) {
    const scale = version === 'v1beta1' ? " 'scaleStrategy'," : ' ';
    errs.push(
      fieldErrors.forbidden(
        fieldPath('spec'),
        `updates to daemonset spec for fields other than 'BurstReplicas', 'template', 'lifecycle',${scale} 'updateStrategy', ` +
          "'minReadySeconds', and 'revisionHistoryLimit' are forbidden",
      ),
    );
  }
  errs.push(...validateDaemonSet(ds, { version }));
  return errs;
}
