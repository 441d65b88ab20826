import { Type, type Static } from '@sinclair/typebox';
import { Int32 } from './scalars.js';

/** `apps/pub.InPlaceUpdateStrategy` (v1alpha1 form). */
export const InPlaceUpdateStrategySchema = Type.Object(
  {
    gracePeriodSeconds: Type.Optional(
      Int32({ description: 'Seconds between marking the pod not-ready and changing its containers.' }),
    ),
  },
  { description: 'Options for in-place updates.' },
);

export type InPlaceUpdateStrategy = Static<typeof InPlaceUpdateStrategySchema>;
