/**
 * core/v1 `NodeSelectorTerm` and `Toleration`, the two per-subset scheduling fields of a UnitedDeployment subset
 * (`apis/apps/v1beta1/uniteddeployment_types.go` Subset). Field names and JSON types as Kubernetes.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Int64 } from '../schemas/scalars.js';

/** core/v1 NodeSelectorRequirement. */
export const NodeSelectorRequirementSchema = Type.Object({
  key: Type.String({ description: 'The label key (or field name for matchFields) the selector applies to.' }),
  operator: Type.String({ description: 'In, NotIn, Exists, DoesNotExist, Gt or Lt.' }),
  values: Type.Optional(
    Type.Array(Type.String(), {
      description:
        'Values for In / NotIn (non-empty), one integer for Gt / Lt, none for Exists / DoesNotExist.',
      'x-kubernetes-list-type': 'atomic',
    }),
  ),
});

/** core/v1 NodeSelectorTerm: its requirements are ANDed. */
export const NodeSelectorTermSchema = Type.Object(
  {
    matchExpressions: Type.Optional(
      Type.Array(NodeSelectorRequirementSchema, {
        description: "Requirements over the node's labels.",
        'x-kubernetes-list-type': 'atomic',
      }),
    ),
    matchFields: Type.Optional(
      Type.Array(NodeSelectorRequirementSchema, {
        description: "Requirements over the node's fields (ignored by the UnitedDeployment controller).",
        'x-kubernetes-list-type': 'atomic',
      }),
    ),
  },
  { 'x-kubernetes-map-type': 'atomic' },
);

/** core/v1 Toleration. */
export const TolerationSchema = Type.Object({
  key: Type.Optional(
    Type.String({ description: 'The taint key; empty with operator Exists matches every taint.' }),
  ),
  operator: Type.Optional(Type.String({ description: 'Exists or Equal (default).' })),
  value: Type.Optional(Type.String({ description: 'The taint value (Equal).' })),
  effect: Type.Optional(
    Type.String({ description: 'NoSchedule, PreferNoSchedule, NoExecute, or empty for all.' }),
  ),
  tolerationSeconds: Type.Optional(Int64({ description: 'How long a NoExecute taint is tolerated.' })),
});

export type NodeSelectorRequirement = Static<typeof NodeSelectorRequirementSchema>;
export type NodeSelectorTerm = Static<typeof NodeSelectorTermSchema>;
export type Toleration = Static<typeof TolerationSchema>;
