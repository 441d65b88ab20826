import { Type, type TSchema, type TUnion, type TInteger, type TString } from '@sinclair/typebox';

/**
 * `intstr.IntOrString`: a JSON number or string. In a CRD it is a node without `type`, marked
 * `x-kubernetes-int-or-string: true`; the `anyOf` of integer and string is the form controller-gen writes and is
 * allowed next to the marker by the structural-schema rules.
 */
export function IntOrString(options: { description?: string } = {}): TUnion<[TInteger, TString]> {
  return Type.Union([Type.Integer(), Type.String()], { ...options, 'x-kubernetes-int-or-string': true });
}

/** True for a schema built by {@link IntOrString}. */
export function isIntOrStringSchema(s: TSchema): boolean {
  return (s as Record<string, unknown>)['x-kubernetes-int-or-string'] === true;
}
