/**
 * SidecarSet UPDATE rules on top of every CREATE rule (`pkg/webhook/sidecarset/validating`:
 * `validateSidecarContainerConflict`, and the canary base annotation): a container may not be added or renamed
 * ("container X is not found"), its `upgradeStrategy.upgradeType` is immutable, and a canary's
 * `apps.kruise.io/sidecarset-base` annotation is immutable.
 */
import { type FieldError, fieldErrors, fieldPath, isPlainObject } from '@regatta/kube';
import { withoutNullMembers } from '../core/shape.js';
import type { SidecarSetValidationContext } from './context-rules.js';
import { sidecarSetToV1beta1 } from './conversion.js';
import { SidecarSetAnnotations } from './keys.js';
import { sidecarSetShapeErrors } from './shape.js';
import type { SidecarContainer, SidecarSet } from './types.js';
import { validateSidecarSetObject } from './validation.js';
import { sidecarSetVersionOf } from './version.js';

/** Upstream `validateSidecarContainerConflict` over `spec.containers`. */
export function containerUpdateErrors(next: readonly SidecarContainer[], old: readonly SidecarContainer[]): FieldError[] {
  const path = fieldPath('spec', 'containers');
  const oldTypes = new Map(old.map((c) => [c.name, c.upgradeStrategy?.upgradeType ?? '']));
  const errs: FieldError[] = [];
  for (const c of next) {
    const was = oldTypes.get(c.name);
    if (was === undefined) {
      errs.push(fieldErrors.invalid(path.child('name'), c.name, `container ${c.name} is not found`));
    } else if (was !== '' && (c.upgradeStrategy?.upgradeType ?? 'ColdUpgrade') !== was) {
      errs.push(fieldErrors.invalid(path.child('upgradeStrategy', 'upgradeType'), c.name, `container ${c.name} upgradeType is immutable`));
    }
  }
  return errs;
}

function asSidecarSet(obj: unknown, ctx: SidecarSetValidationContext): SidecarSet {
  const version = ctx.version ?? sidecarSetVersionOf(obj);
  const v1beta1 = withoutNullMembers(version === 'v1alpha1' ? sidecarSetToV1beta1(obj) : obj);
  const o = (isPlainObject(v1beta1) ? v1beta1 : {}) as Partial<SidecarSet>;
  return { ...o, spec: o.spec ?? {} };
}

/** UPDATE: every CREATE rule, then the rules above against the stored object. Empty when allowed. */
export function validateSidecarSetUpdate(obj: unknown, old: unknown, ctx: SidecarSetValidationContext = {}): FieldError[] {
  const typeErrors = sidecarSetShapeErrors(obj);
  if (typeErrors.length > 0) return typeErrors;
  const oldTypeErrors = sidecarSetShapeErrors(old);
  const errs: FieldError[] = [];
  if (oldTypeErrors.length === 0) {
    const next = asSidecarSet(obj, ctx);
    const prev = asSidecarSet(old, ctx);
    errs.push(...containerUpdateErrors(next.spec.containers ?? [], prev.spec.containers ?? []));
    const base = SidecarSetAnnotations.Base;
    const oldBase = prev.metadata?.annotations?.[base];
    const newBase = next.metadata?.annotations?.[base];
    if (oldBase !== undefined && newBase !== oldBase) {
      errs.push(fieldErrors.invalid(fieldPath('metadata'), next.metadata?.annotations ?? {}, `annotations[${base}] is immutable`));
    }
  }
  // upstream answers the metadata/spec/update errors first and lists the other SidecarSets only when there are none
  const own = validateSidecarSetObject(obj, { ...ctx, others: errs.length > 0 ? undefined : ctx.others });
  return [...own, ...errs];
}
