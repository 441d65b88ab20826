import { Type, type Static } from '@sinclair/typebox';
import { Int32 } from './scalars.js';
import { LabelSelectorSchema } from './label-selector.js';

/** `apps/pub.UpdatePriorityOrderTerm`. */
export const UpdatePriorityOrderTermSchema = Type.Object({
  orderedKey: Type.String({ description: 'Pods with a higher integer in this label value are updated first.' }),
});

/** `apps/pub.UpdatePriorityWeightTerm`. */
export const UpdatePriorityWeightTermSchema = Type.Object({
  weight: Int32({ description: 'Weight in [0, 100] added to pods matching the selector.' }),
  matchSelector: LabelSelectorSchema,
});

/** `apps/pub.UpdatePriorityStrategy`: either weights or orders, not both. */
export const UpdatePriorityStrategySchema = Type.Object(
  {
    orderPriority: Type.Optional(Type.Array(UpdatePriorityOrderTermSchema, { description: 'Update order by label keys.' })),
    weightPriority: Type.Optional(Type.Array(UpdatePriorityWeightTermSchema, { description: 'Update order by selector weights.' })),
  },
  { description: 'The order in which pods are updated.' },
);

export type UpdatePriorityStrategy = Static<typeof UpdatePriorityStrategySchema>;
export type UpdatePriorityWeightTerm = Static<typeof UpdatePriorityWeightTermSchema>;
export type UpdatePriorityOrderTerm = Static<typeof UpdatePriorityOrderTermSchema>;
