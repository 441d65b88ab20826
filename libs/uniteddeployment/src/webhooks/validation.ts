/**
 * UnitedDeployment validation, as OpenKruise's validating webhook (`pkg/webhook/uniteddeployment/validating`):
 * every rule of spec §6.1 with its field path and message. Both versions have the same spec and the same rules.
 * Any JSON is accepted: wrongly typed fields are reported as type errors first.
 */
import {
  type FieldError,
  type FieldPath,
  type LabelSelector,
  fieldErrors,
  fieldPath,
  isDns1123Label,
  isPlainObject,
  jsonEqual,
  validateLabelSelector,
} from '@regatta/kube';
import {
  unitedDeploymentShapeErrors,
  validateLabels,
  validateObjectMeta,
  type UnitedDeployment,
  type UnitedDeploymentSpec,
} from '@regatta/api';
import { nodeSelectorTermErrors, tolerationsErrors } from './node-rules.js';
import { subsetReplicasErrors } from './replicas-rules.js';
import { compileUdSelector, subsetTemplateErrors, subsetTemplateUpdateErrors } from './template-rules.js';

function updateStrategyErrors(
  spec: UnitedDeploymentSpec,
  subsetNames: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const strategy = spec.updateStrategy ?? {};
  const type = strategy.type || 'Manual';
  if (type !== 'Manual') return [fieldErrors.notSupported(path.child('type'), strategy.type, ['Manual', ''])];
  const partitions = strategy.manualUpdate?.partitions ?? {};
  return Object.keys(partitions)
    .filter((name) => !subsetNames.has(name))
    .map((name) =>
      fieldErrors.invalid(
        path.child('manualUpdate', 'partitions'),
        partitions,
        `subset ${name} does not exist`,
      ),
    );
}

function selectorErrors(selector: LabelSelector | undefined, path: FieldPath): FieldError[] {
  if (selector == null) return [fieldErrors.required(path, '')];
  const errs = validateLabelSelector(selector, path);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(fieldErrors.invalid(path, selector, 'empty selector is invalid for statefulset'));
  }
  return errs;
}

/** The rules of `spec` (`validateUnitedDeploymentSpecV1beta1`). */
export function unitedDeploymentSpecErrors(
  spec: UnitedDeploymentSpec,
  path: FieldPath = fieldPath('spec'),
): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.replicas != null && spec.replicas < 0) {
    errs.push(
      fieldErrors.invalid(path.child('replicas'), spec.replicas, 'must be greater than or equal to 0'),
    );
  }
  errs.push(...selectorErrors(spec.selector ?? undefined, path.child('selector')));

  const strategy = spec.topology?.scheduleStrategy;
  const adaptive = strategy?.type === 'Adaptive';
  const template = spec.template ?? {};
  if (
    adaptive &&
    strategy?.adaptive?.reserveUnschedulablePods &&
    (template.advancedStatefulSetTemplate || template.statefulSetTemplate)
  ) {
    errs.push(
      fieldErrors.invalid(
        path.child('topology', 'scheduleStrategy'),
        strategy,
        'only stateless workloads (Deployment and CloneSet) are supported by reserved rescheduling',
      ),
    );
  }

  const compiled = compileUdSelector(spec.selector ?? undefined);
  if (!compiled) errs.push(fieldErrors.invalid(path.child('selector'), spec.selector, ''));
  else
    errs.push(
      ...subsetTemplateErrors(spec.template, spec.selector ?? undefined, compiled, path.child('template')),
    );

  const subsets = spec.topology?.subsets ?? [];
  const subsetsPath = path.child('topology', 'subsets');
  errs.push(...subsetReplicasErrors(spec.replicas ?? undefined, subsets, subsetsPath));

  const names = new Set<string>();
  subsets.forEach((subset, i) => {
    const at = subsetsPath.index(i);
    const name = subset.name ?? '';
    if (name.length === 0) errs.push(fieldErrors.required(at.child('name'), ''));
    if (names.has(name))
      errs.push(fieldErrors.invalid(at.child('name'), name, `duplicated subset name ${name}`));
    names.add(name);
    const nameErrs = isDns1123Label(name);
    if (nameErrs.length > 0)
      errs.push(fieldErrors.invalid(at.child('name'), name, `invalid subset name ${nameErrs.join(', ')}`));
    errs.push(...nodeSelectorTermErrors(subset.nodeSelectorTerm, at.child('nodeSelectorTerm')));
    // Regatta's shorthand, normally converted by the mutating webhook before this runs
    if (subset.nodeSelector != null)
      errs.push(...validateLabels(subset.nodeSelector, at.child('nodeSelector')));
    if (subset.tolerations != null)
      errs.push(...tolerationsErrors(subset.tolerations, at.child('tolerations')));
    if (subset.replicas != null && adaptive) {
      errs.push(
        fieldErrors.forbidden(
          at.child('replicas'),
          'specify replicas use minReplicas/maxReplicas to enable adaptive strategy',
        ),
      );
    }
  });
  errs.push(...updateStrategyErrors(spec, names, path.child('updateStrategy')));
  return errs;
}

/** CREATE: type errors, then metadata and spec rules. */
export function validateUnitedDeployment(obj: unknown): FieldError[] {
  const typeErrs = unitedDeploymentShapeErrors(obj);
  if (typeErrs.length > 0) return typeErrs;
  const ud = obj as Partial<UnitedDeployment>;
  return [
    ...validateObjectMeta(ud.metadata, true, fieldPath('metadata')),
    ...unitedDeploymentSpecErrors(ud.spec ?? ({} as UnitedDeploymentSpec)),
  ];
}

/** The update-only rules: template spec fields that may not change, immutable subset node selection and tolerations. */
export function unitedDeploymentUpdateErrors(
  spec: UnitedDeploymentSpec,
  old: UnitedDeploymentSpec,
): FieldError[] {
  const path = fieldPath('spec');
  const errs = subsetTemplateUpdateErrors(spec.template, old.template, path.child('template'));
  const oldSubsets = new Map((old.topology?.subsets ?? []).map((s) => [s.name, s]));
  (spec.topology?.subsets ?? []).forEach((subset, i) => {
    const before = oldSubsets.get(subset.name);
    if (!before) return;
    const at = path.child('topology', 'subsets').index(i);
    if (!jsonEqual(normalisedTerm(before.nodeSelectorTerm), normalisedTerm(subset.nodeSelectorTerm))) {
      errs.push(fieldErrors.forbidden(at.child('nodeSelectorTerm'), 'may not be changed in an update'));
    }
    if (!jsonEqual(emptyAsNull(before.tolerations), emptyAsNull(subset.tolerations))) {
      errs.push(fieldErrors.forbidden(at.child('tolerations'), 'may not be changed in an update'));
    }
  });
  if (spec.replicas != null && spec.replicas < 0) {
    errs.push(
      fieldErrors.invalid(path.child('replicas'), spec.replicas, 'must be greater than or equal to 0'),
    );
  }
  return errs;
}

// Semantic.DeepEqual: a missing, null or empty list is the same
const emptyAsNull = (v: readonly unknown[] | null | undefined): readonly unknown[] | null =>
  v == null || v.length === 0 ? null : v;
const normalisedTerm = (
  t: { matchExpressions?: unknown[] | null; matchFields?: unknown[] | null } | null | undefined,
) => ({
  matchExpressions: emptyAsNull(t?.matchExpressions),
  matchFields: emptyAsNull(t?.matchFields),
});

/** UPDATE: the CREATE rules on the new object, then the update rules (as upstream, which reports both). */
export function validateUnitedDeploymentUpdate(obj: unknown, old: unknown): FieldError[] {
  const errs = validateUnitedDeployment(obj);
  if (errs.some((e) => e.type === 'FieldValueTypeInvalid' && !e.field.startsWith('metadata'))) return errs;
  if (!isPlainObject(old) || unitedDeploymentShapeErrors(old).length > 0) return errs;
  const spec = ((obj as Partial<UnitedDeployment>).spec ?? {}) as UnitedDeploymentSpec;
  const oldSpec = ((old as Partial<UnitedDeployment>).spec ?? {}) as UnitedDeploymentSpec;
  return [...errs, ...unitedDeploymentUpdateErrors(spec, oldSpec)];
}
