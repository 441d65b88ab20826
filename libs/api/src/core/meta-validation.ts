/**
 * apimachinery's metadata checks used by the webhooks: `ValidateLabels`, `ValidateAnnotations` and the name /
 * namespace / generateName part of `ValidateObjectMeta`. Any JSON value is accepted: wrongly typed members are
 * reported as type errors with their paths.
 */
import {
  type FieldError,
  type FieldPath,
  fieldErrors,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '@regatta/kube';
import { asObject, shapeErrors, shapes, withoutNullMembers } from './shape.js';

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

const STRING_MAP = shapes.map(shapes.string);
const META_SHAPE = shapes.object({
  name: shapes.string,
  generateName: shapes.string,
  namespace: shapes.string,
  labels: STRING_MAP,
  annotations: STRING_MAP,
});

/** `unversionedvalidation.ValidateLabels`: keys are qualified names, values label values. */
export function validateLabels(labels: unknown, path: FieldPath): FieldError[] {
  const errs = shapeErrors(labels, STRING_MAP, path);
  if (errs.length > 0) return errs;
  for (const [k, v] of Object.entries(asObject(labels) ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(fieldErrors.invalid(path, k, msg));
    for (const msg of isValidLabelValue(String(v))) errs.push(fieldErrors.invalid(path, v, msg));
  }
  return errs;
}

/** `apimachineryvalidation.ValidateAnnotations`: keys are qualified names (checked lower-cased), at most 256 KiB. */
export function validateAnnotations(annotations: unknown, path: FieldPath): FieldError[] {
  const errs = shapeErrors(annotations, STRING_MAP, path);
  if (errs.length > 0) return errs;
  let size = 0;
  for (const [k, v] of Object.entries(asObject(annotations) ?? {})) {
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
export function validateObjectMeta(meta: unknown, requiresNamespace: boolean, path: FieldPath): FieldError[] {
  const errs = shapeErrors(meta, META_SHAPE, path);
  if (errs.length > 0) return errs;
  const m = (asObject(withoutNullMembers(meta)) ?? {}) as { name?: string; generateName?: string; namespace?: string; labels?: unknown; annotations?: unknown };
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
