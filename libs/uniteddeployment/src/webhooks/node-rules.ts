/**
 * Kubernetes' checks of a subset's scheduling fields, as the UnitedDeployment webhook runs them
 * (`k8s.io/kubernetes/pkg/apis/core/validation` ValidateNodeSelectorTerm with empty terms allowed,
 * ValidateTolerations).
 */
import {
  type FieldError,
  type FieldPath,
  fieldErrors,
  isQualifiedName,
  isValidLabelValue,
} from '@regatta/kube';
import type { NodeSelectorRequirement, NodeSelectorTerm, Toleration } from '@regatta/api';

function labelKeyErrors(key: string, path: FieldPath): FieldError[] {
  return isQualifiedName(key).map((msg) => fieldErrors.invalid(path, key, msg));
}

function requirementErrors(r: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const n = r.values?.length ?? 0;
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if (n === 0)
        errs.push(
          fieldErrors.required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"),
        );
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (n > 0)
        errs.push(
          fieldErrors.forbidden(
            path.child('values'),
            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
          ),
        );
      break;
    case 'Gt':
    case 'Lt':
      if (n !== 1)
        errs.push(
          fieldErrors.required(
            path.child('values'),
            "must be specified single value when `operator` is 'Lt' or 'Gt'",
          ),
        );
      break;
    default:
      errs.push(fieldErrors.invalid(path.child('operator'), r.operator, 'not a valid selector operator'));
  }
  errs.push(...labelKeyErrors(r.key ?? '', path.child('key')));
  return errs;
}

function fieldRequirementErrors(r: NodeSelectorRequirement, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  switch (r.operator) {
    case 'In':
    case 'NotIn':
      if ((r.values?.length ?? 0) !== 1) {
        errs.push(
          fieldErrors.required(
            path.child('values'),
            "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
          ),
        );
      }
      break;
    default:
      errs.push(fieldErrors.invalid(path.child('operator'), r.operator, 'not a valid selector operator'));
  }
  if (r.key !== 'metadata.name')
    errs.push(fieldErrors.invalid(path.child('key'), r.key, 'not a valid field selector key'));
  return errs;
}

/** `ValidateNodeSelectorTerm(term, allowEmpty=true, path)`. */
export function nodeSelectorTermErrors(term: NodeSelectorTerm | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (term?.matchExpressions ?? []).forEach((r, j) =>
    errs.push(...requirementErrors(r, path.child('matchExpressions').index(j))),
  );
  (term?.matchFields ?? []).forEach((r, j) =>
    errs.push(...fieldRequirementErrors(r, path.child('matchFields').index(j))),
  );
  return errs;
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** `ValidateTolerations`. */
export function tolerationsErrors(
  tolerations: readonly Toleration[] | undefined,
  path: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const at = path.index(i);
    const key = t.key ?? '';
    if (key.length > 0) errs.push(...labelKeyErrors(key, at.child('key')));
    if (key.length === 0 && t.operator !== 'Exists') {
      errs.push(
        fieldErrors.invalid(
          at.child('operator'),
          t.operator ?? '',
          'operator must be Exists when `key` is empty, which means "match all values and all keys"',
        ),
      );
    }
    if (t.tolerationSeconds != null && t.effect !== 'NoExecute') {
      errs.push(
        fieldErrors.invalid(
          at.child('effect'),
          t.effect ?? '',
          "effect must be 'NoExecute' when `tolerationSeconds` is set",
        ),
      );
    }
    switch (t.operator ?? '') {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length > 0) errs.push(fieldErrors.invalid(at.child('operator'), t, msgs.join(';')));
        break;
      }
      case 'Exists':
        if ((t.value ?? '').length > 0)
          errs.push(
            fieldErrors.invalid(at.child('operator'), t, "value must be empty when `operator` is 'Exists'"),
          );
        break;
      default:
        errs.push(fieldErrors.notSupported(at.child('operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect && !TAINT_EFFECTS.includes(t.effect))
      errs.push(fieldErrors.notSupported(at.child('effect'), t.effect, TAINT_EFFECTS));
  });
  return errs;
}
