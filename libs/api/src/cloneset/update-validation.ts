/**
 * CloneSet UPDATE validation (OpenKruise v1.9 `validateCloneSetUpdate` + `ValidateCloneSetUpdate` of the controller
 * core):
 *
 * - only `replicas`, `template`, `scaleStrategy`, `updateStrategy`, `minReadySeconds`, `lifecycle`,
 *   `revisionHistoryLimit`, `volumeClaimTemplates` and `progressDeadlineSeconds` may change (so the selector is
 *   immutable) → `spec: Forbidden`;
 * - with (new) `updateStrategy.type: InPlaceOnly`, the diff of `template.spec` may only replace
 *   `/containers/<i>/image` → `spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found …`;
 * - then every CREATE rule (with `podsToDelete` look-ups only for names not in the old object).
 *
 * Objects are compared as Go would after decoding them: null members and empty lists / maps count as absent. Any
 * JSON value is accepted for either object (type errors of the new one are reported with their paths; an old object
 * that is not a JSON object counts as empty).
 */
import { type FieldError, createJsonPatch, fieldErrors, fieldPath, isPlainObject, jsonEqual, setMember } from '@regatta/kube';
import { asObject } from '../core/shape.js';
import { cloneSetShapeErrors } from './shape.js';
import { type CloneSetValidationContext, validateCloneSetObject } from './validation.js';

/** Spec fields an update may change. */
export const CLONESET_MUTABLE_SPEC_FIELDS = [
  'replicas',
  'template',
  'scaleStrategy',
  'updateStrategy',
  'minReadySeconds',
  'lifecycle',
  'revisionHistoryLimit',
  'volumeClaimTemplates',
  'progressDeadlineSeconds',
] as const;

const IMAGE_PATH_RE = /^\/containers\/([0-9]+)\/image$/;

/** Drops null members and empty arrays / objects, bottom-up (Go's `omitempty` and nil-vs-empty equality). */
export function withoutEmpty(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(withoutEmpty);
    return items.length === 0 ? undefined : items.map((x) => x ?? null);
  }
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const y = withoutEmpty(x);
      if (y !== undefined && y !== null) setMember(out, k, y);
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v ?? undefined;
}

const specOf = (cs: unknown): Record<string, unknown> | undefined => asObject(asObject(cs)?.['spec']);
const templateSpecOf = (cs: unknown): unknown => asObject(specOf(cs)?.['template'])?.['spec'];

/** The first template-spec change an `InPlaceOnly` CloneSet may not make, as `<op> <path>`; undefined if none. */
export function inPlaceOnlyViolation(oldCs: unknown, newCs: unknown): string | undefined {
  const before = withoutEmpty(templateSpecOf(oldCs)) ?? {};
  const after = withoutEmpty(templateSpecOf(newCs)) ?? {};
  for (const op of createJsonPatch(before, after)) {
    if (op.op !== 'replace' || !IMAGE_PATH_RE.test(op.path)) return `${op.op} ${op.path}`;
  }
  return undefined;
}

/** UPDATE: the rules above followed by the CREATE rules; empty when the update is allowed. */
export function validateCloneSetUpdate(cs: unknown, old: unknown, ctx: CloneSetValidationContext = {}): FieldError[] {
  const typeErrors = cloneSetShapeErrors(cs);
  if (typeErrors.length > 0) return typeErrors;
  const errs: FieldError[] = [];
  const frozen = (spec: Record<string, unknown> | undefined): Record<string, unknown> => {
    const rest: Record<string, unknown> = { ...(spec ?? {}) };
    for (const k of CLONESET_MUTABLE_SPEC_FIELDS) delete rest[k];
    return (withoutEmpty(rest) ?? {}) as Record<string, unknown>;
  };
  if (!jsonEqual(frozen(specOf(cs)), frozen(specOf(old)))) {
    errs.push(
      fieldErrors.forbidden(
        fieldPath('spec'),
        "updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', " +
          "'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden",
      ),
    );
  }
  if (asObject(specOf(cs)?.['updateStrategy'])?.['type'] === 'InPlaceOnly') {
    const bad = inPlaceOnlyViolation(old, cs);
    if (bad !== undefined) {
      errs.push(fieldErrors.forbidden(fieldPath('spec'), `only allowed to update images in spec for InPlaceOnly, but found ${bad}`));
    }
  }
  errs.push(...validateCloneSetObject(cs, asObject(old) ?? {}, ctx));
  return errs;
}
