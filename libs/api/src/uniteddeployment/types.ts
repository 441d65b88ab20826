/**
 * UnitedDeployment, `apps.kruise.io/v1beta1` (stored; the controller works on it) and `v1alpha1` (served) — field
 * names, JSON types and optionality as OpenKruise (`apis/apps/v1beta1/uniteddeployment_types.go`,
 * `apis/apps/v1alpha1/uniteddeployment_types.go`). The schemas are the source of both the static types and the CRD.
 *
 * The two versions have the same spec; upstream's status differs: v1beta1 has `updatedRevision`, v1alpha1 has
 * `subsetReplicas` and `updateStatus {updatedRevision, currentPartitions}` instead.
 *
 * Deliberate differences from upstream (docs/adr/0028-uniteddeployment-api.md):
 * - both status schemas hold both views, because no conversion webhook converts the status and the controller
 *   writes through v1beta1 (as the DaemonSet's `daemonSetHash`, docs/adr/0023-daemonset-hash-stored-for-v1alpha1-readers.md);
 * - `template.cloneSetTemplate.spec` is Regatta's CloneSet spec, i.e. v1alpha1 (the only CloneSet version Regatta
 *   serves; OpenKruise v1.9.0 also used v1alpha1 there), so its partition is `updateStrategy.partition`.
 * - `topology.subsets[].nodeSelector` (a label map) is kept by the schema: it is the shorthand the seed article
 *   writes, which the mutating webhook turns into `nodeSelectorTerm.matchExpressions` (with a warning).
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { CloneSetSpecSchema } from '../cloneset/types.js';
import type { PodTemplateSpec, TemplateMeta } from '../core/pod-types.js';
import { described } from '../schemas/describe.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema, type LabelSelectorSpec } from '../schemas/label-selector.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, StringMap, Time } from '../schemas/scalars.js';
import { StatefulSetSpecSchema } from '../statefulset/types.js';
import { NodeSelectorTermSchema, TolerationSchema } from './node-selection.js';

export const UNITED_DEPLOYMENT_KIND = 'UnitedDeployment';
/** The version the controller reads and writes (the storage version). */
export const UNITED_DEPLOYMENT_API_VERSION = APPS_V1BETA1;
export const UNITED_DEPLOYMENT_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;
/** The controller / event component name (`pkg/controller/uniteddeployment/uniteddeployment_controller.go`). */
export const UNITED_DEPLOYMENT_CONTROLLER_NAME = 'uniteddeployment-controller';

/** Defaults (`apis/apps/defaults/v1beta1.go` SetDefaultsUnitedDeployment, `uniteddeployment_types.go`). */
export const DEFAULT_UNITED_DEPLOYMENT_REPLICAS = 1;
export const DEFAULT_UNITED_DEPLOYMENT_REVISION_HISTORY_LIMIT = 10;
/** `adaptive.rescheduleCriticalSeconds` when unset. */
export const DEFAULT_RESCHEDULE_CRITICAL_SECONDS = 30;
/** `adaptive.unschedulableDuration` when unset. */
export const DEFAULT_UNSCHEDULABLE_DURATION_SECONDS = 300;
/** What a subset without `maxReplicas` counts as in the webhook's Σmin ≤ Σmax check. */
export const UNLIMITED_MAX_REPLICAS_FOR_VALIDATION = 1_000_000;

/** `spec.updateStrategy.type` (CRD enum `Manual;""`). */
export const UNITED_DEPLOYMENT_UPDATE_STRATEGY_TYPES = ['Manual', ''] as const;
export type UnitedDeploymentUpdateStrategyType = (typeof UNITED_DEPLOYMENT_UPDATE_STRATEGY_TYPES)[number];

/** `spec.topology.scheduleStrategy.type` (CRD enum `Adaptive;Fixed;""`; "" means Fixed). */
export const UNITED_DEPLOYMENT_SCHEDULE_STRATEGY_TYPES = ['Adaptive', 'Fixed', ''] as const;
export type UnitedDeploymentScheduleStrategyType = (typeof UNITED_DEPLOYMENT_SCHEDULE_STRATEGY_TYPES)[number];

/** The four template kinds, by their `spec.template` member. */
export const SUBSET_TEMPLATE_FIELDS = [
  'statefulSetTemplate',
  'advancedStatefulSetTemplate',
  'cloneSetTemplate',
  'deploymentTemplate',
] as const;
export type SubsetTemplateField = (typeof SUBSET_TEMPLATE_FIELDS)[number];

/** Subset workload kinds (`subSetType` upstream). */
export const SubsetTypes = {
  StatefulSet: 'StatefulSet',
  AdvancedStatefulSet: 'AdvancedStatefulSet',
  CloneSet: 'CloneSet',
  Deployment: 'Deployment',
} as const;
export type SubsetType = (typeof SubsetTypes)[keyof typeof SubsetTypes];

/** Labels and annotations the UnitedDeployment controller writes (spec §9.1). */
export const UnitedDeploymentLabels = {
  /** On subset workloads, their selector and pods: the subset name. */
  SubsetName: 'apps.kruise.io/subset-name',
  /** On subset workloads and their pod templates: the UD ControllerRevision name. */
  ControllerRevisionHash: 'apps.kruise.io/controller-revision-hash',
  /** On pods (reservation mode): `"true"` / `"false"`. */
  ReservedPod: 'apps.kruise.io/united-deployment-reserved-pod',
} as const;

export const UnitedDeploymentAnnotations = {
  /** On subset workloads: raw JSON of the subset's `patch` last applied ("" when none). */
  SubsetPatch: 'apps.kruise.io/subset-patch',
} as const;

/** `status.conditions[].type`. */
export const UnitedDeploymentConditionTypes = {
  SubsetProvisioned: 'SubsetProvisioned',
  SubsetUpdated: 'SubsetUpdated',
  SubsetFailure: 'SubsetFailure',
  UnitedDeploymentUpdated: 'UnitedDeploymentUpdated',
} as const;

/** `status.subsetStatuses[].conditions[].type`. */
export const SUBSET_SCHEDULABLE_CONDITION = 'Schedulable';

/** Condition reasons the controller writes. */
export const UnitedDeploymentConditionReasons = {
  RevisionUpdating: 'UnitedDeploymentRevisionUpdating',
  RevisionUpdated: 'UnitedDeploymentRevisionUpdated',
  Error: 'Error',
  /** Subset `Schedulable` reasons. */
  Reschedule: 'reschedule',
  Recover: 'recover',
  Created: 'created',
} as const;

/**
 * Event reasons (`Failed%s` / `Successful%s` of the controller's event types; two of them upstream spell with a
 * space).
 */
export const UnitedDeploymentEventReasons = {
  FailedRevisionProvision: 'FailedRevisionProvision',
  FailedFindSubsets: 'FailedFindSubsets',
  FailedFindSubsetsSpaced: 'Failed FindSubsets',
  FailedDeleteDuplicatedSubsets: 'FailedDeleteDuplicatedSubsets',
  FailedSpecifySubsetReplicas: 'Failed SpecifySubsetReplicas',
  SuccessfulUpdateSubset: 'SuccessfulUpdateSubset',
  FailedUpdateSubset: 'FailedUpdateSubset',
} as const;

/** Template `metadata`: schemaless (kept whole), as upstream. */
const TemplateMetaSchema = (): TUnsafe<TemplateMeta> =>
  Type.Unsafe<TemplateMeta>(
    Type.Object(
      {},
      {
        description: 'Labels and annotations copied onto every subset workload.',
        'x-kubernetes-preserve-unknown-fields': true,
      },
    ),
  );

/** apps/v1 StatefulSetSpec / DeploymentSpec as a UD keeps them: schemaless; the fields Regatta reads are typed. */
export interface NativeWorkloadSpec {
  replicas?: number;
  selector?: LabelSelectorSpec;
  template: PodTemplateSpec;
  updateStrategy?: {
    type?: string;
    rollingUpdate?: { partition?: number; maxUnavailable?: number | string; [k: string]: unknown };
  };
  strategy?: {
    type?: string;
    rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string };
  };
  [key: string]: unknown;
}

const NativeSpecSchema = (description: string): TUnsafe<NativeWorkloadSpec> =>
  Type.Unsafe<NativeWorkloadSpec>(
    Type.Object({}, { description, 'x-kubernetes-preserve-unknown-fields': true }),
  );

export const StatefulSetTemplateSpecSchema = Type.Object(
  { metadata: Type.Optional(TemplateMetaSchema()), spec: NativeSpecSchema('An apps/v1 StatefulSetSpec.') },
  { description: 'StatefulSet template' },
);
export const AdvancedStatefulSetTemplateSpecSchema = Type.Object(
  { metadata: Type.Optional(TemplateMetaSchema()), spec: StatefulSetSpecSchema },
  { description: 'AdvancedStatefulSet template' },
);
export const CloneSetTemplateSpecSchema = Type.Object(
  { metadata: Type.Optional(TemplateMetaSchema()), spec: CloneSetSpecSchema },
  { description: 'CloneSet template' },
);
export const DeploymentTemplateSpecSchema = Type.Object(
  { metadata: Type.Optional(TemplateMetaSchema()), spec: NativeSpecSchema('An apps/v1 DeploymentSpec.') },
  { description: 'Deployment template' },
);

export const SubsetTemplateSchema = Type.Object(
  {
    statefulSetTemplate: Type.Optional(StatefulSetTemplateSpecSchema),
    advancedStatefulSetTemplate: Type.Optional(AdvancedStatefulSetTemplateSpecSchema),
    cloneSetTemplate: Type.Optional(CloneSetTemplateSpecSchema),
    deploymentTemplate: Type.Optional(DeploymentTemplateSpecSchema),
  },
  { description: 'The workload every subset is created from: exactly one of the four templates.' },
);

export const SubsetSchema = Type.Object(
  {
    name: Type.String({
      description: "Subset name (DNS label, unique); workloads are named '<ud>-<subset>-…'.",
    }),
    nodeSelectorTerm: Type.Optional(
      described(
        NodeSelectorTermSchema,
        "Nodes of this subset (only matchExpressions are used); can't be changed.",
      ),
    ),
    nodeSelector: Type.Optional(
      StringMap({
        description:
          'Regatta shorthand (not an OpenKruise field): label → value, turned by the webhook into nodeSelectorTerm.matchExpressions with operator In.',
      }),
    ),
    tolerations: Type.Optional(
      Type.Array(TolerationSchema, {
        description: "Tolerations added to this subset's pods; can't be changed.",
      }),
    ),
    replicas: Type.Optional(
      IntOrString({
        description:
          'Pods of this subset: a number or a percentage of spec.replicas; unset subsets share the rest evenly.',
      }),
    ),
    minReplicas: Type.Optional(
      IntOrString({
        description: 'Lower bound, filled first in subset order; excludes replicas; default 0.',
      }),
    ),
    maxReplicas: Type.Optional(
      IntOrString({ description: 'Upper bound; unset means unlimited; excludes replicas.' }),
    ),
    patch: Type.Optional(
      Type.Unsafe<Record<string, unknown>>(
        Type.Object(
          {},
          {
            description:
              'Strategic merge patch applied to the pod template of this subset; takes precedence over everything else.',
            'x-kubernetes-preserve-unknown-fields': true,
          },
        ),
      ),
    ),
  },
  { description: 'One subset (topology domain) and its one workload.' },
);

export const AdaptiveUnitedDeploymentStrategySchema = Type.Object(
  {
    rescheduleCriticalSeconds: Type.Optional(
      Int32({
        description:
          'Seconds a pod may stay unschedulable before its subset is marked unschedulable; default 30.',
      }),
    ),
    unschedulableDuration: Type.Optional(
      Int32({ description: 'Seconds a subset stays unschedulable once marked; default 300.' }),
    ),
    reserveUnschedulablePods: Type.Optional(
      Type.Boolean({
        description:
          'Keep unschedulable pods and run temporary substitutes in other subsets (CloneSet and Deployment templates only).',
      }),
    ),
  },
  { description: 'Parameters of the Adaptive schedule strategy.' },
);

export const UnitedDeploymentScheduleStrategySchema = Type.Object(
  {
    type: Type.Optional(
      Type.Unsafe<UnitedDeploymentScheduleStrategyType>(
        Type.String({
          enum: [...UNITED_DEPLOYMENT_SCHEDULE_STRATEGY_TYPES],
          description: 'Fixed (default) or Adaptive.',
        }),
      ),
    ),
    adaptive: Type.Optional(AdaptiveUnitedDeploymentStrategySchema),
  },
  { description: 'How pods that cannot be scheduled in their subset are handled.' },
);

export const TopologySchema = Type.Object(
  {
    subsets: Type.Optional(
      Type.Array(SubsetSchema, { description: 'The subsets, in priority order (merge key: name).' }),
    ),
    scheduleStrategy: Type.Optional(UnitedDeploymentScheduleStrategySchema),
  },
  { description: 'How pods are spread over subsets.' },
);

export const ManualUpdateSchema = Type.Object(
  {
    partitions: Type.Optional(
      Type.Record(Type.String(), Int32(), { description: 'Per subset name: pods kept at the old revision.' }),
    ),
  },
  { description: 'Parameters of the Manual update strategy.' },
);

export const UnitedDeploymentUpdateStrategySchema = Type.Object(
  {
    type: Type.Optional(
      Type.Unsafe<UnitedDeploymentUpdateStrategyType>(
        Type.String({ enum: [...UNITED_DEPLOYMENT_UPDATE_STRATEGY_TYPES], description: 'Manual (default).' }),
      ),
    ),
    manualUpdate: Type.Optional(ManualUpdateSchema),
  },
  { description: 'How subsets move to a new revision of the template.' },
);

export const UnitedDeploymentSpecSchema = Type.Object(
  {
    replicas: Type.Optional(Int32({ description: 'Total desired pods over all subsets; default 1.' })),
    selector: described(LabelSelectorSchema, "Label query over the pods; must match the template's labels."),
    template: Type.Optional(SubsetTemplateSchema),
    topology: Type.Optional(TopologySchema),
    updateStrategy: Type.Optional(UnitedDeploymentUpdateStrategySchema),
    revisionHistoryLimit: Type.Optional(
      Int32({ description: 'How many old ControllerRevisions to keep; default 10.' }),
    ),
  },
  { description: 'The desired state of the UnitedDeployment.' },
);

/** `status.conditions[]`. */
export const UnitedDeploymentConditionSchema = Type.Object({
  type: Type.Optional(
    Type.String({
      description: 'SubsetProvisioned, SubsetUpdated, SubsetFailure or UnitedDeploymentUpdated.',
    }),
  ),
  status: Type.Optional(Type.String({ description: 'True, False or Unknown.' })),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String({ description: 'A CamelCase reason for the last transition.' })),
  message: Type.Optional(Type.String({ description: 'A human-readable message about the last transition.' })),
});

/** `status.subsetStatuses[].conditions[]` (type `Schedulable`). */
export const UnitedDeploymentSubsetConditionSchema = Type.Object({
  type: Type.String({ description: 'Schedulable.' }),
  status: Type.String({ description: 'True, False or Unknown.' }),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String({ description: 'reschedule, recover or created.' })),
  message: Type.Optional(Type.String({ description: 'A human-readable message about the last transition.' })),
});

export const UnitedDeploymentSubsetStatusSchema = Type.Object({
  name: Type.Optional(Type.String({ description: 'Subset name.' })),
  replicas: Type.Optional(Int32({ description: 'Replicas allocated to the subset.' })),
  readyReplicas: Type.Optional(Int32({ description: 'Ready pods of the subset.' })),
  partition: Type.Optional(Int32({ description: 'Partition of the subset.' })),
  reservedPods: Type.Optional(Int32({ description: 'Reserved pods of the subset (reservation mode).' })),
  conditions: Type.Optional(
    Type.Array(UnitedDeploymentSubsetConditionSchema, { description: 'Subset conditions.' }),
  ),
});

const commonStatusFields = {
  observedGeneration: Type.Optional(Int64({ description: 'The generation this status was computed for.' })),
  readyReplicas: Type.Optional(Int32({ description: 'Ready pods over all subsets.' })),
  replicas: Int32({ description: 'Pods over all subsets (reserved pods not counted).' }),
  updatedReplicas: Int32({ description: 'Pods at the updated revision.' }),
  reservedPods: Type.Optional(Int32({ description: 'Reserved pods (reservation mode).' })),
  updatedReadyReplicas: Type.Optional(Int32({ description: 'Ready pods at the updated revision.' })),
  collisionCount: Type.Optional(Int32({ description: 'Hash collisions met while naming revisions.' })),
  currentRevision: Type.String({ description: 'Name of the current ControllerRevision.' }),
  subsetStatuses: Type.Optional(
    Type.Array(UnitedDeploymentSubsetStatusSchema, { description: 'Per subset.' }),
  ),
  conditions: Type.Optional(
    Type.Array(UnitedDeploymentConditionSchema, { description: 'Observations of the current state.' }),
  ),
  labelSelector: Type.Optional(
    Type.String({ description: 'The selector in string form, for the scale subresource (HPA).' }),
  ),
};

export const UnitedDeploymentUpdateStatusSchema = Type.Object({
  updatedRevision: Type.Optional(
    Type.String({ description: 'Name of the ControllerRevision subsets are updated to.' }),
  ),
  currentPartitions: Type.Optional(
    Type.Record(Type.String(), Int32(), { description: 'Partition per subset.' }),
  ),
});

/**
 * The v1alpha1 view (`subsetReplicas`, `updateStatus`) and the v1beta1 `updatedRevision`: both status schemas hold
 * both, so that a reader of either version sees them although no conversion webhook converts the status (the
 * controller writes through v1beta1; docs/adr/0028-uniteddeployment-api.md).
 */
const bothViewsFields = {
  updatedRevision: Type.Optional(
    Type.String({ description: 'Name of the ControllerRevision subsets are updated to.' }),
  ),
  subsetReplicas: Type.Optional(
    Type.Record(Type.String(), Int32(), { description: 'Replicas per subset (v1alpha1 view).' }),
  ),
  updateStatus: Type.Optional(UnitedDeploymentUpdateStatusSchema),
};

export const UnitedDeploymentStatusSchema = Type.Object(
  { ...commonStatusFields, ...bothViewsFields },
  { description: 'The observed state of the UnitedDeployment.' },
);

export const UnitedDeploymentV1alpha1StatusSchema = Type.Object(
  { ...commonStatusFields, ...bothViewsFields },
  { description: 'The observed state of the UnitedDeployment.' },
);

export const UnitedDeploymentSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(UnitedDeploymentSpecSchema),
  status: Type.Optional(UnitedDeploymentStatusSchema),
});

export const UnitedDeploymentV1alpha1Schema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(UnitedDeploymentSpecSchema),
  status: Type.Optional(UnitedDeploymentV1alpha1StatusSchema),
});

export type StatefulSetTemplateSpec = Static<typeof StatefulSetTemplateSpecSchema>;
export type AdvancedStatefulSetTemplateSpec = Static<typeof AdvancedStatefulSetTemplateSpecSchema>;
export type CloneSetTemplateSpec = Static<typeof CloneSetTemplateSpecSchema>;
export type DeploymentTemplateSpec = Static<typeof DeploymentTemplateSpecSchema>;
export type SubsetTemplate = Static<typeof SubsetTemplateSchema>;
export type Subset = Static<typeof SubsetSchema>;
export type AdaptiveUnitedDeploymentStrategy = Static<typeof AdaptiveUnitedDeploymentStrategySchema>;
export type UnitedDeploymentScheduleStrategy = Static<typeof UnitedDeploymentScheduleStrategySchema>;
export type Topology = Static<typeof TopologySchema>;
export type ManualUpdate = Static<typeof ManualUpdateSchema>;
export type UnitedDeploymentUpdateStrategy = Static<typeof UnitedDeploymentUpdateStrategySchema>;
export type UnitedDeploymentSpec = Static<typeof UnitedDeploymentSpecSchema>;
export type UnitedDeploymentCondition = Static<typeof UnitedDeploymentConditionSchema>;
export type UnitedDeploymentSubsetCondition = Static<typeof UnitedDeploymentSubsetConditionSchema>;
export type UnitedDeploymentSubsetStatus = Static<typeof UnitedDeploymentSubsetStatusSchema>;
export type UnitedDeploymentStatus = Static<typeof UnitedDeploymentStatusSchema>;
export type UnitedDeploymentUpdateStatus = Static<typeof UnitedDeploymentUpdateStatusSchema>;
export type UnitedDeploymentV1alpha1Status = Static<typeof UnitedDeploymentV1alpha1StatusSchema>;
/** A v1beta1 UnitedDeployment; `spec` is optional in the schema (as upstream) but every usable object has one. */
export type UnitedDeployment = Omit<Static<typeof UnitedDeploymentSchema>, 'spec'> & {
  spec: UnitedDeploymentSpec;
};
export type UnitedDeploymentV1alpha1 = Omit<Static<typeof UnitedDeploymentV1alpha1Schema>, 'spec'> & {
  spec: UnitedDeploymentSpec;
};
