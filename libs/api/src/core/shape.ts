/**
 * JSON type checks that run before any rule reads a field. A CloneSet reaches the webhooks and the reconciler as
 * decoded JSON; the pod template is kept whole by the CRD (`x-kubernetes-preserve-unknown-fields`), so
 * `containers: {}` or `ports: [null]` are stored as written. Where OpenKruise's webhook fails to decode such an
 * object into its Go structs, Regatta reports a `FieldValueTypeInvalid` error naming the field, and the rules of
 * the validators only run on an object whose every field they read has the expected JSON type.
 *
 * A {@link Shape} lists the fields Regatta reads and their JSON types; members not listed are not checked. An
 * absent or `null` member is accepted (whether it is required is a rule of the validators); `null` as an array item
 * or map value is a type error.
 */
import { type FieldError, type FieldPath, isPlainObject, setMember } from '@regatta/kube';

export type Shape =
  | { readonly t: 'string' | 'int' | 'bool' | 'intOrString' | 'any' }
  | { readonly t: 'object'; readonly fields: Readonly<Record<string, Shape>>; readonly rest?: Shape }
  | { readonly t: 'map'; readonly value: Shape }
  | { readonly t: 'array'; readonly item: Shape };

export const shapes = {
  string: { t: 'string' } as Shape,
  /** A JSON number without a fractional part (Go's int32 / int64 fields). */
  int: { t: 'int' } as Shape,
  bool: { t: 'bool' } as Shape,
  /** `intstr.IntOrString`: an integer or a string. */
  intOrString: { t: 'intOrString' } as Shape,
  any: { t: 'any' } as Shape,
  /** An object with these members; `rest` is the shape of every member not listed (unchecked when omitted). */
  object: (fields: Record<string, Shape> = {}, rest?: Shape): Shape => (rest ? { t: 'object', fields, rest } : { t: 'object', fields }),
  /** A map of any keys to values of one shape (`map[string]string` is `map(string)`). */
  map: (value: Shape): Shape => ({ t: 'map', value }),
  array: (item: Shape): Shape => ({ t: 'array', item }),
};

const EXPECTED: Record<Shape['t'], string> = {
  string: 'must be a string',
  int: 'must be an integer',
  bool: 'must be a boolean',
  intOrString: 'must be an integer or a string',
  any: '',
  object: 'must be an object',
  map: 'must be an object',
  array: 'must be an array',
};

/** The JSON type of a value, as the type errors name it. */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The offending value as shown in a type error: scalars as they are, objects and arrays only when short. */
function shownValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  const text = JSON.stringify(v);
  return text.length <= 60 ? v : `<${jsonTypeOf(v)}>`;
}

/** A `FieldValueTypeInvalid` error: `spec.template.spec.containers: Invalid value: {}: must be an array`. */
export function typeError(path: FieldPath | string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueTypeInvalid', field: `${path}`, badValue: shownValue(value), detail };
}

function matches(v: unknown, shape: Shape): boolean {
  switch (shape.t) {
    case 'string':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'bool':
      return typeof v === 'boolean';
    case 'intOrString':
      return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
    case 'any':
      return true;
    case 'object':
    case 'map':
      return isPlainObject(v);
    case 'array':
      return Array.isArray(v);
  }
}

function checkValue(v: unknown, shape: Shape, path: FieldPath, errs: FieldError[]): void {
  if (!matches(v, shape)) {
    errs.push(typeError(path, v, EXPECTED[shape.t]));
    return;
  }
  if (shape.t === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const member = Object.hasOwn(shape.fields, k) ? shape.fields[k] : shape.rest;
      if (member && x != null) checkValue(x, member, path.child(k), errs);
    }
  } else if (shape.t === 'map') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) checkValue(x, shape.value, path.key(k), errs);
  } else if (shape.t === 'array') {
    (v as unknown[]).forEach((x, i) => checkValue(x, shape.item, path.index(i), errs));
  }
}

/** Type errors of `value` against `shape` (none for an absent / null value). */
export function shapeErrors(value: unknown, shape: Shape, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (value != null) checkValue(value, shape, path, errs);
  return errs;
}

/** The value as an object, or undefined when it is anything else. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return isPlainObject(v) ? v : undefined;
}

/** The strings of a list (other items and non-lists give nothing). */
export function stringItems(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * A copy without `null` object members, at every depth (Go decodes them as absent). The rules run on this copy
 * after the type checks, so they only meet `undefined` for what is absent.
 */
export function withoutNullMembers<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x: unknown) => withoutNullMembers(x)) as T;
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x != null) setMember(out, k, withoutNullMembers(x));
    return out as T;
  }
  return v;
}
