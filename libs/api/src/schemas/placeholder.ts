import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { ObjectMetaSchema } from './object-meta.js';

/**
 * PLACEHOLDER schema for a kind whose controller is not written yet: `spec` and `status` are kept whole
 * (`x-kubernetes-preserve-unknown-fields`), with only the few typed fields the scale subresource or printer columns
 * need. Replace it with the full schema when the kind's controller lands.
 */
export function placeholderKindSchema(
  fields: { spec?: Record<string, TSchema>; status?: Record<string, TSchema> } = {},
): TObject {
  return Type.Object({
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMetaSchema()),
    spec: Type.Optional(
      Type.Object(optional(fields.spec ?? {}), {
        description: 'Placeholder: kept as written until this kind has its full schema.',
        'x-kubernetes-preserve-unknown-fields': true,
      }),
    ),
    status: Type.Optional(
      Type.Object(optional(fields.status ?? {}), {
        description: 'Placeholder: kept as written until this kind has its full schema.',
        'x-kubernetes-preserve-unknown-fields': true,
      }),
    ),
  });
}

function optional(fields: Record<string, TSchema>): Record<string, TSchema> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, Type.Optional(v)]));
}
