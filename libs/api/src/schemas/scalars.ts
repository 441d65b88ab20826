import { Type, type TInteger, type TRecord, type TString, type TUnsafe } from '@sinclair/typebox';

/** Go `int32`. */
export const Int32 = (options: { description?: string } = {}): TInteger => Type.Integer({ ...options, format: 'int32' });

/** Go `int64`. */
export const Int64 = (options: { description?: string } = {}): TInteger => Type.Integer({ ...options, format: 'int64' });

/** metav1.Time: an RFC 3339 string. */
export const Time = (options: { description?: string } = {}): TString => Type.String({ ...options, format: 'date-time' });

/**
 * `map[string]string` (labels, annotations, labelsHandler). TypeBox writes a record as `patternProperties`, which
 * the CRD generator turns into `additionalProperties` (the only map form a structural schema has).
 */
export const StringMap = (options: { description?: string } = {}): TRecord<TString, TString> =>
  Type.Record(Type.String(), Type.String(), options);

/**
 * A Go string-typed enum that OpenKruise does not restrict in its CRD (the webhook checks it): the schema is a
 * plain string, the static type is the union of the known values (plus any string, because stored objects may hold
 * values a webhook never saw).
 */
export function OpenStringEnum<const V extends readonly string[]>(
  _values: V,
  options: { description?: string } = {},
): TUnsafe<V[number] | (string & {})> {
  return Type.Unsafe<V[number] | (string & {})>(Type.String(options));
}
