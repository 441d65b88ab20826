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
 * Objects are compared as Go would after decoding them: null members and empty lists / maps count as absent.
 */
import { type FieldError, createJsonPatch, fieldErrors, fieldPath, isPlainObject, jsonEqual } from '@regatta/kube';
import type { CloneSet } from './types.js';
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
      if (y !== undefined && y !== null) out[k] = y;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return v ?? undefined;
}

/** The first template-spec change an `InPlaceOnly` CloneSet may not make, as `<op> <path>`; undefined if none. */
export function inPlaceOnlyViolation(oldCs: CloneSet, newCs: CloneSet): string | undefined {
  const before = withoutEmpty(oldCs.spec?.template?.spec) ?? {};
  const after = withoutEmpty(newCs.spec?.template?.spec) ?? {};
  for (const op of createJsonPatch(before, after)) {
    if (op.op !== 'replace' || !IMAGE_PATH_RE.test(op.path)) return `${op.op} ${op.path}`;
  }
  return undefined;
}

/** UPDATE: the rules above followed by the CREATE rules; empty when the update is allowed. */
export function validateCloneSetUpdate(cs: CloneSet, old: CloneSet, ctx: CloneSetValidationContext = {}): FieldError[] {
  const errs: FieldError[] = [];
  const frozen = (spec: CloneSet['spec'] | undefined): Record<string, unknown> => {
    const rest: Record<string, unknown> = { ...(spec ?? {}) };
    for (const k of CLONESET_MUTABLE_SPEC_FIELDS) delete rest[k];
    return (withoutEmpty(rest) ?? {}) as Record<string, unknown>;
  };
  if (!jsonEqual(frozen(cs.spec), frozen(old.spec))) {
    errs.push(
      fieldErrors.forbidden(
        fieldPath('spec'),
        "updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', " +
          "'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden",
      ),
    );
  }
  if (cs.spec?.updateStrategy?.type === 'InPlaceOnly') {
    const bad = inPlaceOnlyViolation(old, cs);
    if (bad !== undefined) {
      errs.push(fieldErrors.forbidden(fieldPath('spec'), `only allowed to update images in spec for InPlaceOnly, but found ${bad}`));
    }
  }
  errs.push(...validateCloneSetObject(cs, old, ctx));
  return errs;
}
