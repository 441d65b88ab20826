/**
 * Field-path validation errors, shaped like apimachinery's `field.Error` so that webhooks can answer with the same
 * messages and `Status.details.causes` as the Go implementation.
 */

/** The `CauseType` values of apimachinery's field errors. */
export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueForbidden'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indexes and keys, e.g. `spec.selector.matchExpressions[0].values`. */
  field: string;
  /** The offending value; omitted for Required / Forbidden / TooLong / Internal errors. */
  badValue?: unknown;
  detail: string;
}

/** An immutable field path: `fieldPath('spec', 'selector').index(0).key('app')` → `spec.selector[0][app]`. */
export class FieldPath {
  private constructor(private readonly path: string) {}

  /** The path of the named fields, `root('spec', 'template')` → `spec.template`. */
  static root(...names: string[]): FieldPath {
    return new FieldPath(names.join('.'));
  }

  child(...names: string[]): FieldPath {
    const tail = names.join('.');
    if (this.path === '') return new FieldPath(tail);
    return new FieldPath(tail === '' ? this.path : `${this.path}.${tail}`);
  }

  index(i: number): FieldPath {
    return new FieldPath(`${this.path}[${i}]`);
  }

  key(k: string): FieldPath {
    return new FieldPath(`${this.path}[${k}]`);
  }

  toString(): string {
    return this.path;
  }
}

/** Shorthand for `FieldPath.root(...names)`. */
export function fieldPath(...names: string[]): FieldPath {
  return FieldPath.root(...names);
}

type PathLike = FieldPath | string;

export const fieldErrors = {
  required: (path: PathLike, detail = ''): FieldError => ({ type: 'FieldValueRequired', field: `${path}`, detail }),
  forbidden: (path: PathLike, detail: string): FieldError => ({ type: 'FieldValueForbidden', field: `${path}`, detail }),
  invalid: (path: PathLike, badValue: unknown, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field: `${path}`,
    badValue,
    detail,
  }),
  notSupported: (path: PathLike, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field: `${path}`,
    badValue,
    detail: supported.length > 0 ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  }),
  duplicate: (path: PathLike, badValue: unknown): FieldError => ({
    type: 'FieldValueDuplicate',
    field: `${path}`,
    badValue,
    detail: '',
  }),
  tooLong: (path: PathLike, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field: `${path}`,
    detail: `may not be more than ${maxLength} bytes`,
  }),
  internal: (path: PathLike, detail: string): FieldError => ({ type: 'InternalError', field: `${path}`, detail }),
};

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueForbidden: 'Forbidden',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

const VALUELESS = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** The error text without the field: `Invalid value: "x": detail` (apimachinery's `ErrorBody`). */
export function fieldErrorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  if (!VALUELESS.has(e.type) && 'badValue' in e) {
    const v = e.badValue;
    if (typeof v === 'string') s += `: ${JSON.stringify(v)}`;
    else if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') s += `: ${String(v)}`;
    else s += `: ${JSON.stringify(v) ?? 'null'}`;
  }
  if (e.detail !== '') s += `: ${e.detail}`;
  return s;
}

/** `spec.replicas: Invalid value: -1: must be greater than or equal to 0` */
export function formatFieldError(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/**
 * Joins errors as apimachinery's `ToAggregate().Error()` does: one error alone, several as `[a, b]`; identical
 * messages appear once.
 */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const msgs = [...new Set(errors.map(formatFieldError))];
  if (msgs.length === 1) return msgs[0] ?? '';
  return `[${msgs.join(', ')}]`;
}
