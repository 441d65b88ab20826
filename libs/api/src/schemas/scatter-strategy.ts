import { Type, type Static } from '@sinclair/typebox';

/** `UpdateScatterTerm`: pods with label key=value are spread out over the update order. */
export const UpdateScatterTermSchema = Type.Object({
  key: Type.String(),
  value: Type.String(),
});

/** `UpdateScatterStrategy`. */
export const UpdateScatterStrategySchema = Type.Array(UpdateScatterTermSchema, {
  description: 'Label key/value pairs whose pods are scattered across the update order.',
});

export type UpdateScatterTerm = Static<typeof UpdateScatterTermSchema>;
export type UpdateScatterStrategy = Static<typeof UpdateScatterStrategySchema>;
