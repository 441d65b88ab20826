/**
 * Advanced StatefulSet UPDATE validation (OpenKruise v1.9 `ValidateStatefulSetUpdate`, `validateTemplateInPlaceOnly`
 * and `ValidateVolumeClaimTemplateUpdate` of `pkg/webhook/statefulset/validating`):
 *
 * - only `replicas`, `ordinals`, `template`, `reserveOrdinals`, `lifecycle`, `revisionHistoryLimit`,
 *   `persistentVolumeClaimRetentionPolicy`, `volumeClaimTemplates`, `volumeClaimUpdateStrategy`, `updateStrategy`
 *   and `scaleStrategy` may change — so `selector`, `serviceName` and `podManagementPolicy` are immutable; each
 *   changed one is a Forbidden error at its own path (upstream reports one error at `spec`);
 * - with (new) `rollingUpdate.podUpdatePolicy: InPlaceOnly`, the diff of `template.spec` may only replace
 *   `/containers/<i>/image`; the error names the first other change (upstream answers a plain 422 with the same text);
 * - with the gate `StatefulSetAutoResizePVCGate` and `volumeClaimUpdateStrategy.type: OnPodRollingUpdate`, claim
 *   templates may not be added, removed or renamed and may only change their storage size, on a storage class that
 *   allows expansion;
 * - then every CREATE rule except the name length.
 *
 * Objects are compared as Go would after decoding them: null members and empty lists / maps count as absent, and an
 * empty `podManagementPolicy` is `OrderedReady`. Any JSON value is accepted for either object.
 */
import { type FieldError, createJsonPatch, fieldErrors, fieldPath, isPlainObject, jsonEqual, parsePointer, type FieldPath } from '@regatta/kube';
import { withoutEmpty } from '../cloneset/update-validation.js';
import { asObject, withoutNullMembers } from '../core/shape.js';
import { statefulSetShapeErrors } from './shape.js';
import type { StatefulSetSpec } from './types.js';
import { validateStatefulSetObject } from './validation.js';

/** Spec fields an update may change. */
export const STATEFULSET_MUTABLE_SPEC_FIELDS = [
  'replicas',
  'ordinals',
  'template',
  'reserveOrdinals',
  'lifecycle',
  'revisionHistoryLimit',
  'persistentVolumeClaimRetentionPolicy',
  'volumeClaimTemplates',
  'volumeClaimUpdateStrategy',
  'updateStrategy',
  'scaleStrategy',
] as const;

export const STATEFULSET_FORBIDDEN_UPDATE_MESSAGE =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'reserveOrdinals', 'lifecycle', " +
  "'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', `volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and " +
  "'updateStrategy' are forbidden";

const IMAGE_PATH_RE = /^\/containers\/([0-9]+)\/image$/;

/** A storage class as the claim-template rule needs it. */
export interface StorageClassInfo {
  name: string;
  allowVolumeExpansion?: boolean;
}

/** What UPDATE validation needs to know beyond the two objects. */
export interface StatefulSetValidationContext {
  /** Feature gate `StatefulSetAutoResizePVCGate` (default false): check claim-template changes. */
  autoResizePVC?: boolean;
  /**
   * The storage class of that name, or the cluster's default class when `name` is undefined; `null` when there is
   * none. Without it, the expansion check is skipped (the other claim-template rules still apply).
   */
  getStorageClass?: (name: string | undefined) => StorageClassInfo | null | undefined;
}

const specOf = (sts: unknown): Record<string, unknown> | undefined => asObject(asObject(sts)?.['spec']);

/** The first template-spec change an `InPlaceOnly` StatefulSet may not make: `{op, pointer}`; undefined if none. */
export function statefulSetInPlaceOnlyViolation(oldSts: unknown, newSts: unknown): { op: string; path: string } | undefined {
  const templateSpec = (sts: unknown): unknown => asObject(specOf(sts)?.['template'])?.['spec'];
  const before = withoutEmpty(templateSpec(oldSts)) ?? {};
  const after = withoutEmpty(templateSpec(newSts)) ?? {};
  for (const op of createJsonPatch(before, after)) {
    if (op.op !== 'replace' || !IMAGE_PATH_RE.test(op.path)) return { op: op.op, path: op.path };
  }
  return undefined;
}

/** `spec.template.spec` + a JSON pointer below it, as a field path (`/containers/0/env` → `…containers[0].env`). */
function templateSpecField(pointer: string): FieldPath {
  let p = fieldPath('spec', 'template', 'spec');
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return p;
  }
  for (const t of tokens) p = /^\d+$/.test(t) ? p.index(Number(t)) : p.child(t);
  return p;
}

function frozenFieldErrors(spec: Record<string, unknown> | undefined, oldSpec: Record<string, unknown> | undefined): FieldError[] {
  const frozen = (s: Record<string, unknown> | undefined): Record<string, unknown> => {
    const rest: Record<string, unknown> = { ...(s ?? {}) };
    for (const k of STATEFULSET_MUTABLE_SPEC_FIELDS) delete rest[k];
    // Go string fields: "" and absent are the same value
    for (const [k, v] of Object.entries(rest)) if (v === '') delete rest[k];
    if (!rest['podManagementPolicy']) rest['podManagementPolicy'] = 'OrderedReady';
    return (withoutEmpty(rest) ?? {}) as Record<string, unknown>;
  };
  const now = frozen(spec);
  const before = frozen(oldSpec);
  const keys = [...new Set([...Object.keys(now), ...Object.keys(before)])].sort();
  return keys
    .filter((k) => !jsonEqual(now[k], before[k]))
    .map((k) => fieldErrors.forbidden(fieldPath('spec', k), STATEFULSET_FORBIDDEN_UPDATE_MESSAGE));
}

/** The storage request and limit of a claim template, as written. */
function storageOf(vct: unknown): { requests: unknown; limits: unknown } {
  const resources = asObject(asObject(asObject(vct)?.['spec'])?.['resources']);
  return { requests: asObject(resources?.['requests'])?.['storage'], limits: asObject(resources?.['limits'])?.['storage'] };
}

/** The claim template without its storage size and status (what may not change under OnPodRollingUpdate). */
function withoutSize(vct: unknown): unknown {
  const copy = withoutNullMembers(structuredClone(asObject(vct) ?? {}));
  delete copy['status'];
  const resources = asObject(asObject(copy['spec'])?.['resources']);
  for (const list of ['requests', 'limits']) delete asObject(resources?.[list])?.['storage'];
  return withoutEmpty(copy) ?? {};
}

/** `ValidateVolumeClaimTemplateUpdate`: the first violation only, as upstream. */
export function volumeClaimTemplateUpdateErrors(spec: StatefulSetSpec, oldSpec: StatefulSetSpec | undefined, ctx: StatefulSetValidationContext): FieldError[] {
  const type = spec.volumeClaimUpdateStrategy?.type;
  if (!ctx.autoResizePVC || !type || type === 'OnDelete') return [];
  const now = spec.volumeClaimTemplates ?? [];
  const before = oldSpec?.volumeClaimTemplates ?? [];
  if (now.length !== before.length) {
    return [fieldErrors.invalid(fieldPath('spec', 'volumeClaimTemplates'), now, 'volumeClaimTemplate can not be added or deleted when OnRollingUpdate')];
  }
  const byName = new Map(before.map((t) => [t.metadata?.name ?? '', t]));
  for (const [i, t] of now.entries()) {
    const p = fieldPath('spec', 'volumeClaimTemplates').index(i);
    const old = byName.get(t.metadata?.name ?? '');
    if (!old) return [fieldErrors.forbidden(p.child('metadata', 'name'), 'volumeClaimTemplate name can not be modified')];
    const sizeChanged = !jsonEqual(storageOf(t), storageOf(old));
    if (!jsonEqual(withoutSize(t), withoutSize(old))) {
      return [fieldErrors.invalid(p, t.metadata?.name ?? '', 'volumeClaimTemplate can not be modified when OnRollingUpdate')];
    }
    if (!sizeChanged || !ctx.getStorageClass) continue;
    const scName = t.spec?.storageClassName;
    const sc = ctx.getStorageClass(scName);
    if (sc == null) {
      if (scName === undefined) continue; // no default class: nothing to check, as upstream
      return [fieldErrors.invalid(p.child('spec', 'storageClassName'), scName, 'can not get sc')];
    }
    if (sc.allowVolumeExpansion === false) {
      return [fieldErrors.forbidden(p.child('spec', 'resources', 'requests', 'storage'), `storage class ${sc.name} does not support volume expansion`)];
    }
  }
  return [];
}

/** UPDATE: the CREATE rules (without the name length) followed by the rules above; empty when allowed. */
export function validateStatefulSetUpdate(sts: unknown, old: unknown, ctx: StatefulSetValidationContext = {}): FieldError[] {
  const typeErrors = statefulSetShapeErrors(sts);
  if (typeErrors.length > 0) return typeErrors;
  const oldObj = asObject(old) ?? {};
  const errs = validateStatefulSetObject(sts, oldObj);
  errs.push(...frozenFieldErrors(specOf(sts), specOf(oldObj)));
  const spec = (withoutNullMembers(specOf(sts)) ?? {}) as StatefulSetSpec;
  const oldSpecRaw = specOf(oldObj);
  // the old object is trusted only as far as its types allow
  const oldSpec = isPlainObject(oldSpecRaw) && statefulSetShapeErrors({ spec: oldSpecRaw }).length === 0 ? (withoutNullMembers(oldSpecRaw) as StatefulSetSpec) : undefined;
  errs.push(...volumeClaimTemplateUpdateErrors(spec, oldSpec, ctx));
  if (spec.updateStrategy?.rollingUpdate?.podUpdatePolicy === 'InPlaceOnly') {
    const bad = statefulSetInPlaceOnlyViolation(oldObj, sts);
    if (bad !== undefined) {
      errs.push(
        fieldErrors.forbidden(
          templateSpecField(bad.path),
          `invalid template modified with InPlaceOnly strategy: ${bad.op} ${bad.path}, currently only image update is allowed for InPlaceOnly`,
        ),
      );
    }
  }
  return errs;
}
