/**
 * WorkloadSpread, `apps.kruise.io/v1alpha1` — field names, JSON types and optionality as OpenKruise
 * (`apis/apps/v1alpha1/workloadspread_types.go`). A WorkloadSpread spreads the pods of one workload (its `targetRef`)
 * over subsets of nodes, each with an optional `maxReplicas`; the pod webhook places each new pod in a subset and the
 * controller keeps the status and the deletion costs (docs/workloadspread.md). The schemas are the source of both
 * the static types and the CRD.
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPS_V1ALPHA1 } from '../group.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';
import { NodeSelectorTermSchema, TolerationSchema } from '../uniteddeployment/node-selection.js';

export const WORKLOAD_SPREAD_KIND = 'WorkloadSpread';
export const WORKLOAD_SPREAD_PLURAL = 'workloadspreads';
export const WORKLOAD_SPREAD_API_VERSION = APPS_V1ALPHA1;
/** Controller name (`pkg/controller/workloadspread`), also the event component. */
export const WORKLOAD_SPREAD_CONTROLLER_NAME = 'workloadspread-controller';

/** `spec.scheduleStrategy.type`. */
export const WORKLOAD_SPREAD_SCHEDULE_STRATEGY_TYPES = ['Fixed', 'Adaptive'] as const;
export type WorkloadSpreadScheduleStrategyType = (typeof WORKLOAD_SPREAD_SCHEDULE_STRATEGY_TYPES)[number];

/** Keys the webhook and the controller write on pods (`pkg/util/workloadspread/workloadspread.go`). */
export const WorkloadSpreadAnnotations = {
  /** JSON `{"name":<WorkloadSpread>,"subset":<subset>[,"uid":<id given to a pod without a name yet>]}`. */
  MatchedWorkloadSpread: 'apps.kruise.io/matched-workloadspread',
  /** Kubernetes' ReplicaSet/CloneSet scale-in order: lower cost goes first. */
  PodDeletionCost: 'controller.kubernetes.io/pod-deletion-cost',
  /** On a WorkloadSpread: do not patch the subset's metadata onto pods created before it. */
  IgnorePatchExistingPods: 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata',
} as const;

export const WorkloadSpreadTargetReferenceSchema = Type.Object(
  {
    apiVersion: Type.String({ description: 'API version of the workload.' }),
    kind: Type.String({ description: 'CloneSet, Deployment, ReplicaSet, Job or StatefulSet.' }),
    name: Type.String({ description: 'Name of the workload, in the WorkloadSpread namespace.' }),
  },
  { description: 'The workload whose pods are spread.' },
);

export const TargetFilterSchema = Type.Object(
  {
    selector: Type.Optional(LabelSelectorSchema),
    replicasPathList: Type.Optional(
      Type.Array(Type.String(), { description: 'Paths in the workload whose sum is the replicas counted.' }),
    ),
  },
  { description: 'Only the workload pods this selects are spread.' },
);

export const PreferredSchedulingTermSchema = Type.Object({
  weight: Int32({ description: 'Weight, 1-100.' }),
  preference: NodeSelectorTermSchema,
});

export const WorkloadSpreadSubsetSchema = Type.Object({
  name: Type.String({ description: 'Unique name of the subset.' }),
  requiredNodeSelectorTerm: Type.Optional(NodeSelectorTermSchema),
  preferredNodeSelectorTerms: Type.Optional(
    Type.Array(PreferredSchedulingTermSchema, { description: 'Preferred node affinity added to the pods.' }),
  ),
  tolerations: Type.Optional(Type.Array(TolerationSchema, { description: 'Tolerations added to the pods.' })),
  maxReplicas: Type.Optional(
    IntOrString({ description: 'Most pods in the subset: a number or a percentage of the workload; none: no limit.' }),
  ),
  patch: Type.Optional(
    Type.Unsafe<Record<string, unknown>>(
      Type.Object(
        {},
        {
          description: "A strategic-merge patch applied to the subset's pods.",
          'x-kubernetes-preserve-unknown-fields': true,
        },
      ),
    ),
  ),
});

export const WorkloadSpreadScheduleStrategySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(WORKLOAD_SPREAD_SCHEDULE_STRATEGY_TYPES, {
        description: 'Fixed (default): a pod stays in its subset; Adaptive: a pod that cannot schedule moves on.',
      }),
    ),
    adaptive: Type.Optional(
      Type.Object({
        disableSimulationSchedule: Type.Optional(Type.Boolean({ description: 'Not used (upstream neither).' })),
        rescheduleCriticalSeconds: Type.Optional(
          Int32({ description: 'Seconds a pod may stay unschedulable before it is deleted and placed elsewhere.' }),
        ),
      }),
    ),
  },
  { description: 'How pods are placed when a subset cannot schedule them.' },
);

export const WorkloadSpreadSpecSchema = Type.Object({
  targetRef: WorkloadSpreadTargetReferenceSchema,
  targetFilter: Type.Optional(TargetFilterSchema),
  subsets: Type.Array(WorkloadSpreadSubsetSchema, { description: 'The subsets, in priority order.' }),
  scheduleStrategy: Type.Optional(WorkloadSpreadScheduleStrategySchema),
});

export const WorkloadSpreadSubsetConditionSchema = Type.Object({
  type: Type.String({ description: 'Schedulable.' }),
  status: Type.String({ description: 'True, False or Unknown.' }),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
});

const TimeMap = (description: string) =>
  Type.Record(Type.String(), Time(), { description });

export const WorkloadSpreadSubsetStatusSchema = Type.Object({
  name: Type.String({ description: 'The subset.' }),
  replicas: Int32({ description: 'Active pods in the subset.' }),
  conditions: Type.Optional(Type.Array(WorkloadSpreadSubsetConditionSchema)),
  missingReplicas: Int32({ description: 'Pods the subset still takes; -1: no limit.' }),
  creatingPods: Type.Optional(TimeMap('Pods placed by the webhook, not seen by the controller yet.')),
  deletingPods: Type.Optional(TimeMap('Pods being deleted, not gone yet.')),
});

export const WorkloadSpreadStatusSchema = Type.Object({
  observedGeneration: Type.Optional(Int64({ description: 'The generation the status is for.' })),
  subsetStatuses: Type.Optional(Type.Array(WorkloadSpreadSubsetStatusSchema)),
  versionedSubsetStatuses: Type.Optional(
    Type.Record(Type.String(), Type.Array(WorkloadSpreadSubsetStatusSchema), {
      description: 'Subset statuses per workload version (Deployment, ReplicaSet).',
    }),
  ),
});

export const WorkloadSpreadSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(WorkloadSpreadSpecSchema),
  status: Type.Optional(WorkloadSpreadStatusSchema),
});

export type WorkloadSpreadTargetReference = Static<typeof WorkloadSpreadTargetReferenceSchema>;
export type WorkloadSpreadSubset = Static<typeof WorkloadSpreadSubsetSchema>;
export type WorkloadSpreadSpec = Static<typeof WorkloadSpreadSpecSchema>;
export type WorkloadSpreadSubsetCondition = Static<typeof WorkloadSpreadSubsetConditionSchema>;
export type WorkloadSpreadSubsetStatus = Static<typeof WorkloadSpreadSubsetStatusSchema>;
export type WorkloadSpreadStatus = Static<typeof WorkloadSpreadStatusSchema>;
/** A WorkloadSpread; every usable object has a spec. */
export type WorkloadSpread = Omit<Static<typeof WorkloadSpreadSchema>, 'spec'> & { spec: WorkloadSpreadSpec };
