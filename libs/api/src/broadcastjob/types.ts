/**
 * BroadcastJob, `apps.kruise.io/v1beta1` (stored; the controller works on it) and `v1alpha1` (served, the same
 * fields) — field names, JSON types and optionality as OpenKruise (`apis/apps/v1alpha1/broadcastjob_types.go`,
 * `apis/apps/v1beta1/broadcastjob_types.go`). A BroadcastJob runs one pod on every eligible node. The schemas are the
 * source of both the static types and the CRD.
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';
import { PodTemplateSpecSchema } from '../schemas/templates.js';
/** `spec.completionPolicy.type` values are ImagePullJob's (upstream shares the Go type). */
import { COMPLETION_POLICY_TYPES, type CompletionPolicyType } from '../imagepulljob/types.js';

export const BROADCAST_JOB_KIND = 'BroadcastJob';
export const BROADCAST_JOB_PLURAL = 'broadcastjobs';
/** The version the controller reads and writes (the storage version). */
export const BROADCAST_JOB_API_VERSION = APPS_V1BETA1;
export const BROADCAST_JOB_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;
/** Controller name (`pkg/controller/broadcastjob`), also the event component. */
export const BROADCAST_JOB_CONTROLLER_NAME = 'broadcastjob-controller';

/** `spec.failurePolicy.type`. */
export const FAILURE_POLICY_TYPES = ['Continue', 'FailFast', 'Pause'] as const;
export type FailurePolicyType = (typeof FAILURE_POLICY_TYPES)[number];

/** `status.phase` (lower case, as upstream). */
export const BROADCAST_JOB_PHASES = ['running', 'paused', 'completed', 'failed'] as const;
export type BroadcastJobPhase = (typeof BROADCAST_JOB_PHASES)[number];
/** `status.conditions[].type`. */
export const JOB_CONDITION_TYPES = ['Complete', 'Failed'] as const;
export type JobConditionType = (typeof JOB_CONDITION_TYPES)[number];

/** Defaults (`apis/apps/defaults` SetDefaultsBroadcastJob). */
export const DEFAULT_BROADCAST_JOB_PARALLELISM = 2 ** 31 - 1;
export const DEFAULT_BROADCAST_JOB_COMPLETION_POLICY: CompletionPolicyType = 'Always';
export const DEFAULT_BROADCAST_JOB_FAILURE_POLICY: FailurePolicyType = 'FailFast';
/**
 * The template's `restartPolicy` when unset. Upstream defaults it to `Always` and then rejects it (only `Never` and
 * `OnFailure` are allowed); Regatta defaults it to `Never` so a manifest without one applies
 * (docs/adr/0073-broadcastjob.md).
 */
export const DEFAULT_BROADCAST_JOB_RESTART_POLICY = 'Never';

/** Labels the controller puts on its pods (`pkg/controller/broadcastjob/broadcastjob_controller.go`). */
export const BroadcastJobLabels = {
  JobName: 'broadcastjob-name',
  ControllerUid: 'broadcastjob-controller-uid',
} as const;

export const BroadcastJobCompletionPolicySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(COMPLETION_POLICY_TYPES, {
        description:
          'Always (default): the job completes once every desired pod has finished; Never: it keeps running and gives new nodes a pod.',
      }),
    ),
    activeDeadlineSeconds: Type.Optional(
      Int64({ description: 'Seconds after startTime the job may stay active before it is failed (Always only).' }),
    ),
    ttlSecondsAfterFinished: Type.Optional(
      Int32({ description: 'Seconds after the job finished that it is deleted with its pods (Always only).' }),
    ),
  },
  { description: 'When the job is finished.' },
);

export const FailurePolicySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(FAILURE_POLICY_TYPES, {
        description:
          'FailFast (default): the job fails at the first failed pod; Continue: it goes on; Pause: it pauses the job.',
      }),
    ),
    restartLimit: Type.Optional(
      Int32({ description: 'Restarts of a pod (OnFailure) that count it as failed; 0: no limit.' }),
    ),
  },
  { description: 'What a failed pod does to the job.' },
);

export const BroadcastJobSpecSchema = Type.Object(
  {
    parallelism: Type.Optional(
      IntOrString({ description: 'Most pods active at once: a number, or a percentage of desired; default: no limit.' }),
    ),
    template: PodTemplateSpecSchema('The pod every eligible node runs (restartPolicy Never or OnFailure).'),
    completionPolicy: Type.Optional(BroadcastJobCompletionPolicySchema),
    paused: Type.Optional(Type.Boolean({ description: 'No new pods while true; running pods are left alone.' })),
    failurePolicy: Type.Optional(FailurePolicySchema),
  },
  { description: 'The desired state of the BroadcastJob.' },
);

export const JobConditionSchema = Type.Object({
  type: Type.String({ description: 'Complete or Failed.' }),
  status: Type.String({ description: 'True, False or Unknown.' }),
  lastProbeTime: Type.Optional(Time({ description: 'The last time the condition was checked.' })),
  lastTransitionTime: Type.Optional(Time({ description: 'The last time the status changed.' })),
  reason: Type.Optional(Type.String({ description: 'A CamelCase reason for the last transition.' })),
  message: Type.Optional(Type.String({ description: 'A human-readable message about the last transition.' })),
});

export const BroadcastJobStatusSchema = Type.Object(
  {
    conditions: Type.Optional(
      Type.Array(JobConditionSchema, { description: 'The latest observations of the job.' }),
    ),
    startTime: Type.Optional(Time({ description: 'When the controller first handled the job.' })),
    completionTime: Type.Optional(Time({ description: 'When the job finished.' })),
    active: Int32({ description: 'Number of actively running pods.' }),
    succeeded: Int32({ description: 'Number of pods which reached phase Succeeded.' }),
    failed: Int32({ description: 'Number of pods which reached phase Failed.' }),
    desired: Int32({ description: 'Number of pods the job wants: the eligible nodes.' }),
    phase: OpenStringEnum(BROADCAST_JOB_PHASES, { description: 'running, paused, completed or failed.' }),
  },
  { description: 'The observed state of the BroadcastJob.' },
);

export const BroadcastJobSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(BroadcastJobSpecSchema),
  status: Type.Optional(BroadcastJobStatusSchema),
});

export type BroadcastJobCompletionPolicy = Static<typeof BroadcastJobCompletionPolicySchema>;
export type FailurePolicy = Static<typeof FailurePolicySchema>;
/** `spec` of a BroadcastJob (also an AdvancedCronJob's `broadcastJobTemplate.spec`). */
export type BroadcastJobSpec = Static<typeof BroadcastJobSpecSchema>;
export type JobCondition = Static<typeof JobConditionSchema>;
export type BroadcastJobStatus = Static<typeof BroadcastJobStatusSchema>;
/** A BroadcastJob (either version: same fields); every usable object has a spec. */
export type BroadcastJob = Omit<Static<typeof BroadcastJobSchema>, 'spec'> & { spec: BroadcastJobSpec };
