/**
 * Advanced StatefulSet, `apps.kruise.io/v1beta1` — field names, JSON types and optionality as OpenKruise v1.9
 * (`apis/apps/v1beta1/statefulset_types.go`). The schema is the source of both the static types and the CRD; the
 * deprecated `v1alpha1` is served with the same schema (see `crd.ts`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { described } from '../schemas/describe.js';
import { InPlaceUpdateStrategySchema } from '../schemas/in-place-update-strategy.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { LifecycleSchema } from '../schemas/lifecycle.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';
import { PodTemplateSpecSchema, VolumeClaimTemplatesSchema } from '../schemas/templates.js';
import { UpdatePriorityStrategySchema } from '../schemas/update-priority.js';

export const STATEFULSET_API_VERSION = APPS_V1BETA1;
/** The deprecated version, served with the same schema. */
export const STATEFULSET_API_VERSION_V1ALPHA1 = APPS_V1ALPHA1;
export const STATEFULSET_KIND = 'StatefulSet';

/** `spec.podManagementPolicy` values (apps/v1 `PodManagementPolicyType`). */
export const POD_MANAGEMENT_POLICIES = ['OrderedReady', 'Parallel'] as const;
export type PodManagementPolicy = (typeof POD_MANAGEMENT_POLICIES)[number];

/** `spec.updateStrategy.type` values (apps/v1 `StatefulSetUpdateStrategyType`). */
export const STATEFULSET_UPDATE_STRATEGY_TYPES = ['RollingUpdate', 'OnDelete'] as const;
export type StatefulSetUpdateStrategyType = (typeof STATEFULSET_UPDATE_STRATEGY_TYPES)[number];

/** `spec.updateStrategy.rollingUpdate.podUpdatePolicy` values (`PodUpdateStrategyType`). */
export const POD_UPDATE_POLICIES = ['ReCreate', 'InPlaceIfPossible', 'InPlaceOnly'] as const;
export type PodUpdatePolicy = (typeof POD_UPDATE_POLICIES)[number];

/** `spec.persistentVolumeClaimRetentionPolicy.{whenDeleted,whenScaled}` values. */
export const PVC_RETENTION_POLICY_TYPES = ['Retain', 'Delete'] as const;
export type PersistentVolumeClaimRetentionPolicyType = (typeof PVC_RETENTION_POLICY_TYPES)[number];

/** `spec.volumeClaimUpdateStrategy.type` values. */
export const VOLUME_CLAIM_UPDATE_STRATEGY_TYPES = ['OnPodRollingUpdate', 'OnDelete'] as const;
export type VolumeClaimUpdateStrategyType = (typeof VOLUME_CLAIM_UPDATE_STRATEGY_TYPES)[number];

/** Default of `spec.updateStrategy.rollingUpdate.maxUnavailable`. */
export const DEFAULT_STATEFULSET_MAX_UNAVAILABLE = 1;
export const DEFAULT_STATEFULSET_REVISION_HISTORY_LIMIT = 10;
/** Upper bound of `spec.updateStrategy.rollingUpdate.minReadySeconds` (`MaxMinReadySeconds`). */
export const STATEFULSET_MAX_MIN_READY_SECONDS = 300;

export const UnorderedUpdateStrategySchema = Type.Object(
  { priorityStrategy: Type.Optional(UpdatePriorityStrategySchema) },
  { description: 'Update pods in priority order instead of by ordinal (Parallel only).' },
);

export const RollingUpdateStatefulSetStrategySchema = Type.Object(
  {
    partition: Type.Optional(
      Int32({ description: 'Ordinal (slot index from ordinals.start) at or above which pods are updated; default 0.' }),
    ),
    maxUnavailable: Type.Optional(
      IntOrString({
        description: 'Most pods that may be unavailable during the update; default 1; other values need Parallel.',
      }),
    ),
    podUpdatePolicy: Type.Optional(
      OpenStringEnum(POD_UPDATE_POLICIES, { description: 'ReCreate (default), InPlaceIfPossible or InPlaceOnly.' }),
    ),
    paused: Type.Optional(Type.Boolean({ description: 'Stop updating pods (scaling still happens).' })),
    unorderedUpdate: Type.Optional(UnorderedUpdateStrategySchema),
    inPlaceUpdateStrategy: Type.Optional(InPlaceUpdateStrategySchema),
    minReadySeconds: Type.Optional(
      Int32({ description: 'Seconds an updated pod must be ready before the next one is updated; 0 to 300.' }),
    ),
  },
  { description: 'Parameters of the RollingUpdate strategy.' },
);

export const StatefulSetUpdateStrategySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(STATEFULSET_UPDATE_STRATEGY_TYPES, { description: 'RollingUpdate (default) or OnDelete.' }),
    ),
    rollingUpdate: Type.Optional(RollingUpdateStatefulSetStrategySchema),
  },
  { description: 'How pods are moved to a new revision of the template.' },
);

export const VolumeClaimUpdateStrategySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(VOLUME_CLAIM_UPDATE_STRATEGY_TYPES, { description: 'OnPodRollingUpdate or OnDelete.' }),
    ),
  },
  { description: 'When claims are updated after a volumeClaimTemplates change.' },
);

export const StatefulSetScaleStrategySchema = Type.Object(
  {
    maxUnavailable: Type.Optional(
      IntOrString({ description: 'Most pods that may be unavailable while scaling out; unset means no limit.' }),
    ),
  },
  { description: 'How pods are created while scaling.' },
);

export const StatefulSetPersistentVolumeClaimRetentionPolicySchema = Type.Object(
  {
    whenDeleted: Type.Optional(
      OpenStringEnum(PVC_RETENTION_POLICY_TYPES, { description: 'Retain (default) or Delete claims when the set is deleted.' }),
    ),
    whenScaled: Type.Optional(
      OpenStringEnum(PVC_RETENTION_POLICY_TYPES, {
        description: 'Retain (default) or Delete claims of pods removed by a scale-down.',
      }),
    ),
  },
  { description: 'What happens to the claims of volumeClaimTemplates.' },
);

export const StatefulSetOrdinalsSchema = Type.Object(
  { start: Type.Optional(Int32({ description: 'The first ordinal; default 0 (gate StatefulSetStartOrdinal).' })) },
  { description: 'The ordinal range of the pods.' },
);

export const StatefulSetSpecSchema = Type.Object(
  {
    replicas: Type.Optional(Int32({ description: 'Desired number of pods; default 1.' })),
    selector: described(LabelSelectorSchema, 'Label query over the pods of this StatefulSet; must match the template labels.'),
    template: PodTemplateSpecSchema('The pod template.'),
    volumeClaimTemplates: Type.Optional(
      VolumeClaimTemplatesSchema('Claims created per pod; the pod volume of the same name uses its claim.'),
    ),
    volumeClaimUpdateStrategy: Type.Optional(VolumeClaimUpdateStrategySchema),
    serviceName: Type.Optional(Type.String({ description: 'The governing headless service (pod subdomain).' })),
    podManagementPolicy: Type.Optional(
      OpenStringEnum(POD_MANAGEMENT_POLICIES, { description: 'OrderedReady (default) or Parallel.' }),
    ),
    updateStrategy: Type.Optional(StatefulSetUpdateStrategySchema),
    revisionHistoryLimit: Type.Optional(Int32({ description: 'How many old ControllerRevisions to keep; default 10.' })),
    reserveOrdinals: Type.Optional(
      Type.Array(IntOrString(), {
        description: 'Ordinals to skip: integers or inclusive ranges "a-b".',
      }),
    ),
    lifecycle: Type.Optional(LifecycleSchema),
    scaleStrategy: Type.Optional(StatefulSetScaleStrategySchema),
    persistentVolumeClaimRetentionPolicy: Type.Optional(StatefulSetPersistentVolumeClaimRetentionPolicySchema),
    ordinals: Type.Optional(StatefulSetOrdinalsSchema),
  },
  { description: 'The desired state of the StatefulSet.' },
);

/** apps/v1 `StatefulSetCondition` (no lastUpdateTime, unlike the Deployment-style condition). */
export const StatefulSetConditionSchema = Type.Object({
  type: Type.String({ description: 'Type of the condition, e.g. FailedCreatePod.' }),
  status: Type.String({ description: 'True, False or Unknown.' }),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String({ description: 'A CamelCase reason for the last transition.' })),
  message: Type.Optional(Type.String({ description: 'A human-readable message about the last transition.' })),
});

export const VolumeClaimStatusSchema = Type.Object({
  volumeClaimName: Type.String({ description: 'Name of the volumeClaimTemplate.' }),
  compatibleReplicas: Int32({ description: 'Claims whose requested storage is at least the template.' }),
  compatibleReadyReplicas: Int32({ description: 'Compatible claims whose capacity reached the request.' }),
});

export const StatefulSetStatusSchema = Type.Object(
  {
    observedGeneration: Type.Optional(Int64({ description: 'The generation this status was computed for.' })),
    replicas: Int32({ description: 'Pods created by the StatefulSet (including condemned ones).' }),
    readyReplicas: Int32({ description: 'Pods that are running and ready.' }),
    availableReplicas: Int32({ description: 'Pods ready for at least minReadySeconds.' }),
    currentReplicas: Int32({ description: 'Pods at currentRevision.' }),
    updatedReplicas: Int32({ description: 'Pods at updateRevision.' }),
    updatedReadyReplicas: Type.Optional(Int32({ description: 'Pods at updateRevision that are ready.' })),
    updatedAvailableReplicas: Type.Optional(
      Int32({ description: 'Pods at updateRevision ready for at least minReadySeconds.' }),
    ),
    currentRevision: Type.Optional(Type.String({ description: 'Name of the ControllerRevision of the current pods.' })),
    updateRevision: Type.Optional(Type.String({ description: 'Name of the ControllerRevision pods are updated to.' })),
    collisionCount: Type.Optional(Int32({ description: 'Hash collisions met while naming revisions.' })),
    conditions: Type.Optional(
      Type.Array(StatefulSetConditionSchema, { description: 'Observations of the current state.' }),
    ),
    labelSelector: Type.Optional(Type.String({ description: 'The selector in string form, for the scale subresource.' })),
    volumeClaims: Type.Optional(
      Type.Array(VolumeClaimStatusSchema, { description: 'Per volumeClaimTemplate, how many claims match it.' }),
    ),
  },
  { description: 'The observed state of the StatefulSet.' },
);

export const StatefulSetSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(StatefulSetSpecSchema),
  status: Type.Optional(StatefulSetStatusSchema),
});

export type UnorderedUpdateStrategy = Static<typeof UnorderedUpdateStrategySchema>;
export type RollingUpdateStatefulSetStrategy = Static<typeof RollingUpdateStatefulSetStrategySchema>;
export type StatefulSetUpdateStrategy = Static<typeof StatefulSetUpdateStrategySchema>;
export type VolumeClaimUpdateStrategy = Static<typeof VolumeClaimUpdateStrategySchema>;
export type StatefulSetScaleStrategy = Static<typeof StatefulSetScaleStrategySchema>;
export type StatefulSetPersistentVolumeClaimRetentionPolicy = Static<
  typeof StatefulSetPersistentVolumeClaimRetentionPolicySchema
>;
export type StatefulSetOrdinals = Static<typeof StatefulSetOrdinalsSchema>;
export type StatefulSetSpec = Static<typeof StatefulSetSpecSchema>;
export type StatefulSetCondition = Static<typeof StatefulSetConditionSchema>;
export type VolumeClaimStatus = Static<typeof VolumeClaimStatusSchema>;
export type StatefulSetStatus = Static<typeof StatefulSetStatusSchema>;
/** A StatefulSet object; `spec` is optional in the schema (as upstream) but every usable object has one. */
export type StatefulSet = Omit<Static<typeof StatefulSetSchema>, 'spec'> & { spec: StatefulSetSpec };

/** `status.conditions[].type` values the StatefulSet controller writes. */
export const StatefulSetConditionTypes = {
  FailedCreatePod: 'FailedCreatePod',
  FailedUpdatePod: 'FailedUpdatePod',
} as const;
