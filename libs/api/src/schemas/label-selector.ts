import { Type, type Static } from '@sinclair/typebox';
import { StringMap } from './scalars.js';

/** metav1.LabelSelectorRequirement. */
export const LabelSelectorRequirementSchema = Type.Object({
  key: Type.String({ description: 'The label key the selector applies to.' }),
  operator: Type.String({ description: 'In, NotIn, Exists or DoesNotExist.' }),
  values: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Values for In / NotIn; must be empty for Exists / DoesNotExist.',
      'x-kubernetes-list-type': 'atomic',
    }),
  ),
});

/** metav1.LabelSelector, with the list/map markers Kubernetes puts on it (atomic for server-side apply). */
export const LabelSelectorSchema = Type.Object(
  {
    matchExpressions: Type.Optional(
      Type.Array(LabelSelectorRequirementSchema, {
        description: 'Requirements that must all hold.',
        'x-kubernetes-list-type': 'atomic',
      }),
    ),
    matchLabels: Type.Optional(StringMap({ description: 'Labels that must all be present with these values.' })),
  },
  { 'x-kubernetes-map-type': 'atomic' },
);

export type LabelSelectorSpec = Static<typeof LabelSelectorSchema>;
