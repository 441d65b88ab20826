/**
 * CloneSet, `apps.kruise.io/v1alpha1` — field names, JSON types and optionality as OpenKruise v1.9
 * (`apis/apps/v1alpha1/cloneset_types.go`). The schema is the source of both the static types and the CRD.
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPS_V1ALPHA1 } from '../group.js';
import { WorkloadConditionSchema } from '../schemas/condition.js';
import { described } from '../schemas/describe.js';
import { InPlaceUpdateStrategySchema } from '../schemas/in-place-update-strategy.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { LifecycleSchema } from '../schemas/lifecycle.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum } from '../schemas/scalars.js';
import { UpdateScatterStrategySchema } from '../schemas/scatter-strategy.js';
import { PodTemplateSpecSchema, VolumeClaimTemplatesSchema } from '../schemas/templates.js';
import { UpdatePriorityStrategySchema } from '../schemas/update-priority.js';

export const CLONESET_API_VERSION = APPS_V1ALPHA1;
export const CLONESET_KIND = 'CloneSet';

/**
 * `spec.updateStrategy.type` values the v1alpha1 webhook accepts. (`OnDelete` exists as a constant upstream but the
 * v1alpha1 webhook rejects it.)
 */
export const CLONESET_UPDATE_STRATEGY_TYPES = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'] as const;
export type CloneSetUpdateStrategyType = (typeof CLONESET_UPDATE_STRATEGY_TYPES)[number];

/** Default of `spec.updateStrategy.maxUnavailable`. */
export const DEFAULT_CLONESET_MAX_UNAVAILABLE = '20%';
export const DEFAULT_CLONESET_REVISION_HISTORY_LIMIT = 10;

export const CloneSetScaleStrategySchema = Type.Object(
  {
    podsToDelete: Type.Optional(
      Type.Array(Type.String(), { description: 'Names of pods to delete first (when scaling in or to be replaced).' }),
    ),
    maxUnavailable: Type.Optional(
      IntOrString({ description: 'Most pods that may be unavailable while scaling out; unset means no limit.' }),
    ),
    disablePVCReuse: Type.Optional(
      Type.Boolean({ description: 'Delete the PVCs of pods that are gone instead of reusing them for new pods.' }),
    ),
  },
  { description: 'How pods are created and deleted.' },
);

export const CloneSetUpdateStrategySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(CLONESET_UPDATE_STRATEGY_TYPES, {
        description: 'ReCreate (default), InPlaceIfPossible or InPlaceOnly.',
      }),
    ),
    partition: Type.Optional(
      IntOrString({ description: 'Number or percentage of pods kept at the old revision; default 0.' }),
    ),
    maxUnavailable: Type.Optional(
      IntOrString({ description: 'Most pods that may be unavailable during update or scale; default 20%.' }),
    ),
    maxSurge: Type.Optional(
      IntOrString({ description: 'Most pods created above replicas during update or specified delete; default 0.' }),
    ),
    paused: Type.Optional(Type.Boolean({ description: 'Stop updating pods (scaling still happens).' })),
    priorityStrategy: Type.Optional(UpdatePriorityStrategySchema),
    scatterStrategy: Type.Optional(UpdateScatterStrategySchema),
    inPlaceUpdateStrategy: Type.Optional(InPlaceUpdateStrategySchema),
  },
  { description: 'How pods are moved to a new revision of the template.' },
);

export const CloneSetSpecSchema = Type.Object(
  {
    replicas: Type.Optional(Int32({ description: 'Desired number of pods; default 1.' })),
    selector: described(LabelSelectorSchema, 'Label query over the pods of this CloneSet; must match the template labels.'),
    template: PodTemplateSpecSchema('The pod template.'),
    volumeClaimTemplates: Type.Optional(
      VolumeClaimTemplatesSchema('Claims created per pod; the pod volume of the same name uses its claim.'),
    ),
    scaleStrategy: Type.Optional(CloneSetScaleStrategySchema),
    updateStrategy: Type.Optional(CloneSetUpdateStrategySchema),
    revisionHistoryLimit: Type.Optional(Int32({ description: 'How many old ControllerRevisions to keep; default 10.' })),
    minReadySeconds: Type.Optional(
      Int32({ description: 'Seconds a new pod must be ready, without crashing, to count as available.' }),
    ),
    lifecycle: Type.Optional(LifecycleSchema),
    progressDeadlineSeconds: Type.Optional(
      Int32({
        description: 'Seconds a rollout may take to become available or reach its partition before Progressing turns False.',
      }),
    ),
  },
  { description: 'The desired state of the CloneSet.' },
);

export const CloneSetStatusSchema = Type.Object(
  {
    observedGeneration: Type.Optional(Int64({ description: 'The generation this status was computed for.' })),
    replicas: Int32({ description: 'Active pods owned by the CloneSet.' }),
    readyReplicas: Int32({ description: 'Pods that are ready.' }),
    availableReplicas: Int32({ description: 'Pods ready for at least minReadySeconds.' }),
    updatedReplicas: Int32({ description: 'Pods at updateRevision.' }),
    updatedReadyReplicas: Int32({ description: 'Pods at updateRevision that are ready.' }),
    updatedAvailableReplicas: Type.Optional(
      Int32({ description: 'Pods at updateRevision ready for at least minReadySeconds.' }),
    ),
    expectedUpdatedReplicas: Type.Optional(Int32({ description: 'replicas minus the scaled partition.' })),
    updateRevision: Type.Optional(Type.String({ description: 'Name of the ControllerRevision pods are updated to.' })),
    currentRevision: Type.Optional(Type.String({ description: 'Name of the ControllerRevision of the current pods.' })),
    collisionCount: Type.Optional(Int32({ description: 'Hash collisions met while naming revisions.' })),
    conditions: Type.Optional(Type.Array(WorkloadConditionSchema, { description: 'Observations of the current state.' })),
    labelSelector: Type.Optional(Type.String({ description: 'The selector in string form, for the scale subresource.' })),
  },
  { description: 'The observed state of the CloneSet.' },
);

export const CloneSetSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(CloneSetSpecSchema),
  status: Type.Optional(CloneSetStatusSchema),
});

export type CloneSetScaleStrategy = Static<typeof CloneSetScaleStrategySchema>;
export type CloneSetUpdateStrategy = Static<typeof CloneSetUpdateStrategySchema>;
export type CloneSetSpec = Static<typeof CloneSetSpecSchema>;
export type CloneSetStatus = Static<typeof CloneSetStatusSchema>;
/** A CloneSet object; `spec` is optional in the schema (as upstream) but every usable object has one. */
export type CloneSet = Omit<Static<typeof CloneSetSchema>, 'spec'> & { spec: CloneSetSpec };

/** `status.conditions[].type` values the CloneSet controller writes. */
export const CloneSetConditionTypes = {
  FailedScale: 'FailedScale',
  FailedUpdate: 'FailedUpdate',
  Progressing: 'Progressing',
} as const;

/** Reasons of the `Progressing` condition (`apis/apps/v1alpha1/cloneset_types.go`). */
export const CloneSetProgressReasons = {
  Available: 'CloneSetAvailable',
  Paused: 'CloneSetPaused',
  PartitionAvailable: 'ProgressPartitionAvailable',
  DeadlineExceeded: 'ProgressDeadlineExceeded',
  Updated: 'CloneSetUpdated',
} as const;
