/**
 * apimachinery's metadata checks used by the webhooks: `ValidateLabels`, `ValidateAnnotations` and the name /
 * namespace / generateName part of `ValidateObjectMeta`.
 */
import {
  type FieldError,
  type FieldPath,
  type ObjectMeta,
  fieldErrors,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '@regatta/kube';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** `unversionedvalidation.ValidateLabels`: keys are qualified names, values label values. */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldErrors.invalid(path, k, msg));
    for (const msg of isValidLabelValue(String(v))) errs.push(fieldErrors.invalid(path, v, msg));
  }
  return errs;
}

/** `apimachineryvalidation.ValidateAnnotations`: keys are qualified names (checked lower-cased), at most 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldErrors.invalid(path, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
    errs.push({
      type: 'FieldValueTooLong',
      field: `${path}`,
      detail: `may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`,
    });
  }
  return errs;
}

/**
 * The name, generateName and namespace rules of `ValidateObjectMeta` (names are DNS-1123 subdomains; the namespace
 * is required for namespaced kinds), plus labels and annotations.
 */
export function validateObjectMeta(meta: ObjectMeta | undefined, requiresNamespace: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const m = meta ?? {};
  if (m.generateName) {
    // a generated name appends 5 characters, so the prefix is checked as a (prefix of a) name
    const prefix = m.generateName.endsWith('-') ? m.generateName.slice(0, -1) : m.generateName;
    for (const msg of isDns1123Subdomain(prefix)) errs.push(fieldErrors.invalid(path.child('generateName'), m.generateName, msg));
  }
  if (!m.name) {
    if (!m.generateName) errs.push(fieldErrors.required(path.child('name'), 'name or generateName is required'));
  } else {
    for (const msg of isDns1123Subdomain(m.name)) errs.push(fieldErrors.invalid(path.child('name'), m.name, msg));
  }
  if (requiresNamespace) {
    if (!m.namespace) errs.push(fieldErrors.required(path.child('namespace'), ''));
    else for (const msg of isDns1123Label(m.namespace)) errs.push(fieldErrors.invalid(path.child('namespace'), m.namespace, msg));
  } else if (m.namespace) {
    errs.push(fieldErrors.forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  errs.push(...validateLabels(m.labels, path.child('labels')));
  errs.push(...validateAnnotations(m.annotations, path.child('annotations')));
  return errs;
}
