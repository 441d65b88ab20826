/**
 * Advanced DaemonSet, `apps.kruise.io/v1beta1` (stored; the controller works on it) and `v1alpha1` (served) — field
 * names, JSON types and optionality as OpenKruise (`apis/apps/v1beta1/daemonset_types.go`,
 * `apis/apps/v1alpha1/daemonset_types.go`). The schemas are the source of both the static types and the CRD.
 *
 * The two versions differ in three places: v1alpha1 also accepts the deprecated `rollingUpdateType: Surging`
 * (defaulted to `Standard`), has no `spec.scaleStrategy` (its annotation `daemonset.kruise.io/progressive-create-pod`
 * says the same) and names `status.updateRevision` `status.daemonSetHash`.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { described } from '../schemas/describe.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { LifecycleSchema } from '../schemas/lifecycle.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';
import { PodTemplateSpecSchema } from '../schemas/templates.js';

export const DAEMONSET_KIND = 'DaemonSet';
/** The version the controller reads and writes (the storage version). */
export const DAEMONSET_API_VERSION = APPS_V1BETA1;
export const DAEMONSET_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;

/** `spec.updateStrategy.type`. */
export const DAEMONSET_UPDATE_STRATEGY_TYPES = ['RollingUpdate', 'OnDelete'] as const;
export type DaemonSetUpdateStrategyType = (typeof DAEMONSET_UPDATE_STRATEGY_TYPES)[number];

/** `spec.updateStrategy.rollingUpdate.rollingUpdateType` (v1beta1). */
export const DAEMONSET_ROLLING_UPDATE_TYPES = ['Standard', 'InPlaceIfPossible'] as const;
export type DaemonSetRollingUpdateType = (typeof DAEMONSET_ROLLING_UPDATE_TYPES)[number];
/** v1alpha1 also accepts the deprecated alias `Surging` (the defaulter turns it into `Standard`). */
export const DAEMONSET_V1ALPHA1_ROLLING_UPDATE_TYPES = [...DAEMONSET_ROLLING_UPDATE_TYPES, 'Surging'] as const;
export type DaemonSetV1alpha1RollingUpdateType = (typeof DAEMONSET_V1ALPHA1_ROLLING_UPDATE_TYPES)[number];

/** Defaults (`apis/apps/defaults/v1beta1.go` SetDefaultsDaemonSetV1beta1). */
export const DEFAULT_DAEMONSET_BURST_REPLICAS = 250;
export const DEFAULT_DAEMONSET_REVISION_HISTORY_LIMIT = 10;
/** maxUnavailable / maxSurge when both are unset. */
export const DEFAULT_DAEMONSET_MAX_UNAVAILABLE = 1;
export const DEFAULT_DAEMONSET_MAX_SURGE = 0;
/** v1alpha1 `Surging`: maxSurge / maxUnavailable when unset (`apis/apps/defaults/v1alpha1.go`). */
export const SURGING_DEFAULT_MAX_SURGE = 1;
export const SURGING_DEFAULT_MAX_UNAVAILABLE = 0;

/** The controller / event component name. */
export const DAEMONSET_CONTROLLER_NAME = 'daemonset-controller';

function rollingUpdateSchema(types: readonly string[]) {
  return Type.Object(
    {
      rollingUpdateType: Type.Optional(
        OpenStringEnum(types, {
          description:
            types.length > 2
              ? 'Standard (default), InPlaceIfPossible, or the deprecated Surging (turned into Standard with maxSurge 1).'
              : 'Standard (default; delete and recreate, or surge with maxSurge) or InPlaceIfPossible.',
        }),
      ),
      maxUnavailable: Type.Optional(
        IntOrString({
          description:
            'Most nodes (number or percentage of desired nodes, rounded up) without an available daemon pod during the update; default 1 when maxSurge is unset too.',
        }),
      ),
      maxSurge: Type.Optional(
        IntOrString({
          description:
            'Most nodes (number or percentage, rounded up) that run an extra new pod next to the old one during the update; default 0.',
        }),
      ),
      selector: Type.Optional(
        described(LabelSelectorSchema, 'Only nodes matching this label query have their daemon pods updated.'),
      ),
      partition: Type.Optional(
        IntOrString({
          description:
            'Number or percentage (of desiredNumberScheduled, rounded down) of nodes whose daemon pods stay at the old revision.',
        }),
      ),
      paused: Type.Optional(Type.Boolean({ description: 'Stop updating pods (pods are still created and deleted).' })),
    },
    { description: 'Parameters of the RollingUpdate strategy.' },
  );
}

export const RollingUpdateDaemonSetSchema = rollingUpdateSchema(DAEMONSET_ROLLING_UPDATE_TYPES);
export const RollingUpdateDaemonSetV1alpha1Schema = rollingUpdateSchema(DAEMONSET_V1ALPHA1_ROLLING_UPDATE_TYPES);

function updateStrategySchema<R extends TSchema>(rollingUpdate: R) {
  return Type.Object(
    {
      type: Type.Optional(
        OpenStringEnum(DAEMONSET_UPDATE_STRATEGY_TYPES, { description: 'RollingUpdate (default) or OnDelete.' }),
      ),
      rollingUpdate: Type.Optional(rollingUpdate),
    },
    { description: 'How daemon pods are moved to a new revision of the template.' },
  );
}

export const DaemonSetUpdateStrategySchema = updateStrategySchema(RollingUpdateDaemonSetSchema);
export const DaemonSetUpdateStrategyV1alpha1Schema = updateStrategySchema(RollingUpdateDaemonSetV1alpha1Schema);

/** `spec.scaleStrategy` (v1beta1 only). */
export const DaemonSetScaleStrategySchema = Type.Object(
  {
    partitionedScaling: Type.Optional(
      Type.Boolean({ description: 'The partition also limits how many nodes get a new daemon pod.' }),
    ),
  },
  { description: 'How daemon pods are created on nodes that have none.' },
);

const commonSpecFields = {
  selector: described(LabelSelectorSchema, 'Label query over the daemon pods; must match the template labels.'),
  template: PodTemplateSpecSchema('The pod template; one pod from it runs on every eligible node.'),
  minReadySeconds: Type.Optional(
    Int32({ description: 'Seconds a new daemon pod must be ready, without crashing, to count as available.' }),
  ),
  burstReplicas: Type.Optional(
    IntOrString({
      description:
        'Most pods created or deleted in one reconcile (number, or percentage of desiredNumberScheduled rounded down); default 250.',
    }),
  ),
  revisionHistoryLimit: Type.Optional(Int32({ description: 'How many old ControllerRevisions to keep; default 10.' })),
  lifecycle: Type.Optional(described(LifecycleSchema, 'Lifecycle hooks; only preDelete is supported.')),
};

export const DaemonSetSpecSchema = Type.Object(
  {
    ...commonSpecFields,
    updateStrategy: Type.Optional(DaemonSetUpdateStrategySchema),
    scaleStrategy: Type.Optional(DaemonSetScaleStrategySchema),
  },
  { description: 'The desired state of the DaemonSet.' },
);

export const DaemonSetV1alpha1SpecSchema = Type.Object(
  { ...commonSpecFields, updateStrategy: Type.Optional(DaemonSetUpdateStrategyV1alpha1Schema) },
  { description: 'The desired state of the DaemonSet.' },
);

/** `apps/v1.DaemonSetCondition`. */
export const DaemonSetConditionSchema = Type.Object({
  type: Type.String({ description: 'Type of the condition.' }),
  status: Type.String({ description: 'True, False or Unknown.' }),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String({ description: 'A CamelCase reason for the last transition.' })),
  message: Type.Optional(Type.String({ description: 'A human-readable message about the last transition.' })),
});

const commonStatusFields = {
  currentNumberScheduled: Int32({ description: 'Nodes that should run the daemon pod and run at least one.' }),
  numberMisscheduled: Int32({ description: 'Nodes that run the daemon pod but should not.' }),
  desiredNumberScheduled: Int32({ description: 'Nodes that should run the daemon pod.' }),
  numberReady: Int32({ description: 'Nodes that should run the daemon pod and whose pod is ready.' }),
  observedGeneration: Type.Optional(Int64({ description: 'The generation this status was computed for.' })),
  updatedNumberScheduled: Int32({ description: 'Nodes whose daemon pod is at the update revision.' }),
  numberAvailable: Type.Optional(Int32({ description: 'Nodes whose daemon pod is available (minReadySeconds).' })),
  numberUnavailable: Type.Optional(Int32({ description: 'desiredNumberScheduled minus numberAvailable.' })),
  collisionCount: Type.Optional(Int32({ description: 'Hash collisions met while naming revisions.' })),
  conditions: Type.Optional(
    Type.Array(DaemonSetConditionSchema, { description: 'Observations of the current state.' }),
  ),
};

export const DaemonSetStatusSchema = Type.Object(
  {
    ...commonStatusFields,
    updateRevision: Type.Optional(
      Type.String({ description: 'The controller-revision-hash of the current template.' }),
    ),
    // not in upstream's v1beta1 schema: stored so that v1alpha1 readers see their name of updateRevision without a
    // conversion webhook (docs/adr/0023-daemonset-hash-stored-for-v1alpha1-readers.md)
    daemonSetHash: Type.Optional(
      Type.String({ description: 'updateRevision under its v1alpha1 name, for clients reading through v1alpha1.' }),
    ),
  },
  { description: 'The observed state of the DaemonSet.' },
);

export const DaemonSetV1alpha1StatusSchema = Type.Object(
  {
    ...commonStatusFields,
    daemonSetHash: Type.Optional(Type.String({ description: 'The controller-revision-hash of the current template.' })),
  },
  { description: 'The observed state of the DaemonSet.' },
);

export const DaemonSetSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(DaemonSetSpecSchema),
  status: Type.Optional(DaemonSetStatusSchema),
});

export const DaemonSetV1alpha1Schema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(DaemonSetV1alpha1SpecSchema),
  status: Type.Optional(DaemonSetV1alpha1StatusSchema),
});

export type RollingUpdateDaemonSet = Static<typeof RollingUpdateDaemonSetSchema>;
export type DaemonSetUpdateStrategy = Static<typeof DaemonSetUpdateStrategySchema>;
export type DaemonSetScaleStrategy = Static<typeof DaemonSetScaleStrategySchema>;
export type DaemonSetSpec = Static<typeof DaemonSetSpecSchema>;
export type DaemonSetCondition = Static<typeof DaemonSetConditionSchema>;
export type DaemonSetStatus = Static<typeof DaemonSetStatusSchema>;
/** A v1beta1 DaemonSet; `spec` is optional in the schema (as upstream) but every usable object has one. */
export type DaemonSet = Omit<Static<typeof DaemonSetSchema>, 'spec'> & { spec: DaemonSetSpec };

export type RollingUpdateDaemonSetV1alpha1 = Static<typeof RollingUpdateDaemonSetV1alpha1Schema>;
export type DaemonSetV1alpha1Spec = Static<typeof DaemonSetV1alpha1SpecSchema>;
export type DaemonSetV1alpha1Status = Static<typeof DaemonSetV1alpha1StatusSchema>;
export type DaemonSetV1alpha1 = Omit<Static<typeof DaemonSetV1alpha1Schema>, 'spec'> & { spec: DaemonSetV1alpha1Spec };

/** Event reasons of the DaemonSet controller (`pkg/controller/daemonset/daemonset_controller.go` and pod control). */
export const DaemonSetEventReasons = {
  SelectingAll: 'SelectingAll',
  FailedDaemonPod: 'FailedDaemonPod',
  SuccessfulCreate: 'SuccessfulCreate',
  FailedCreate: 'FailedCreate',
  SuccessfulDelete: 'SuccessfulDelete',
  FailedDelete: 'FailedDelete',
  SuccessfulUpdatePodInPlace: 'SuccessfulUpdatePodInPlace',
  FailedUpdatePodInPlace: 'FailedUpdatePodInPlace',
} as const;
