import { Type, type Static } from '@sinclair/typebox';
import { Time } from './scalars.js';

/**
 * The Deployment-style workload condition (`CloneSetCondition` and friends): type and status required, both
 * timestamps optional.
 */
export const WorkloadConditionSchema = Type.Object({
  type: Type.String({ description: 'Type of the condition, e.g. Progressing.' }),
  status: Type.String({ description: 'True, False or Unknown.' }),
  lastUpdateTime: Type.Optional(Time({ description: 'The last time this condition was updated.' })),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String({ description: 'A CamelCase reason for the last transition.' })),
  message: Type.Optional(Type.String({ description: 'A human-readable message about the last transition.' })),
});

export type WorkloadCondition = Static<typeof WorkloadConditionSchema>;
