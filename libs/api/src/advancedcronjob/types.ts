/**
 * AdvancedCronJob, `apps.kruise.io/v1beta1` (stored; the controller works on it) and `v1alpha1` (served, the same
 * fields) — field names, JSON types and optionality as OpenKruise (`apis/apps/v1alpha1/advancedcronjob_types.go`,
 * `apis/apps/v1beta1/advancedcronjob_types.go`, without v1beta1's `imageListPullJobTemplate`: docs/advancedcronjob.md).
 * An AdvancedCronJob creates a batch/v1 Job or a BroadcastJob on a cron schedule. The schemas are the source of both
 * the static types and the CRD.
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { BroadcastJobSpecSchema } from '../broadcastjob/types.js';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import type { TemplateMeta } from '../core/pod-types.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';
import type { JobTemplateSpec } from './job-types.js';

export const ADVANCED_CRON_JOB_KIND = 'AdvancedCronJob';
export const ADVANCED_CRON_JOB_PLURAL = 'advancedcronjobs';
/** The version the controller reads and writes (the storage version). */
export const ADVANCED_CRON_JOB_API_VERSION = APPS_V1BETA1;
export const ADVANCED_CRON_JOB_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;
/** Controller name (`pkg/controller/advancedcronjob`), also the event component. */
export const ADVANCED_CRON_JOB_CONTROLLER_NAME = 'advancedcronjob-controller';

/** `spec.concurrencyPolicy`. */
export const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'] as const;
export type ConcurrencyPolicy = (typeof CONCURRENCY_POLICIES)[number];
/** `status.type`: what the template creates. */
export const TEMPLATE_KINDS = ['Job', 'BroadcastJob'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Defaults (`apis/apps/defaults` SetDefaultsAdvancedCronJob). */
export const DEFAULT_CONCURRENCY_POLICY: ConcurrencyPolicy = 'Allow';
export const DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT = 3;
export const DEFAULT_FAILED_JOBS_HISTORY_LIMIT = 1;

/** Keys the controller writes (`pkg/controller/advancedcronjob/advancedcronjob_controller.go`). */
export const AdvancedCronJobAnnotations = {
  /** On every created job: the nominal scheduled time, RFC 3339 (the last schedule time is read back from it). */
  ScheduledAt: 'apps.kruise.io/scheduled-at',
} as const;

const JobTemplateSchema = (): TUnsafe<JobTemplateSpec> =>
  Type.Unsafe<JobTemplateSpec>(
    Type.Object(
      {},
      {
        description: 'Specifies the job that will be created when executing a CronJob.',
        'x-kubernetes-preserve-unknown-fields': true,
      },
    ),
  );

/**
 * The metadata of the jobs made from a template, kept whole: upstream's CRD types it as an empty object, so the API
 * server prunes the labels and annotations a broadcastJobTemplate gives (docs/adr/0074-advancedcronjob.md).
 */
const TemplateMetadataSchema = (): TUnsafe<TemplateMeta> =>
  Type.Unsafe<TemplateMeta>(
    Type.Object(
      {},
      { description: "Standard object's metadata of the jobs created from this template.", 'x-kubernetes-preserve-unknown-fields': true },
    ),
  );

export const BroadcastJobTemplateSpecSchema = Type.Object(
  {
    metadata: Type.Optional(TemplateMetadataSchema()),
    spec: Type.Optional(BroadcastJobSpecSchema),
  },
  { description: 'Specifies the broadcastjob that will be created when executing a BroadcastCronJob.' },
);

export const CronJobTemplateSchema = Type.Object(
  {
    jobTemplate: Type.Optional(JobTemplateSchema()),
    broadcastJobTemplate: Type.Optional(BroadcastJobTemplateSpecSchema),
  },
  { description: 'The job to create at each scheduled time: exactly one of jobTemplate and broadcastJobTemplate.' },
);

export const AdvancedCronJobSpecSchema = Type.Object(
  {
    schedule: Type.String({ description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.', minLength: 0 }),
    timeZone: Type.Optional(
      Type.String({
        description:
          'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. Default: UTC.',
      }),
    ),
    startingDeadlineSeconds: Type.Optional(
      Int64({ description: 'Optional deadline in seconds for starting the job if it misses scheduled time for any reason.' }),
    ),
    concurrencyPolicy: Type.Optional(
      Type.Unsafe<ConcurrencyPolicy>(
        Type.String({
          enum: [...CONCURRENCY_POLICIES],
          description:
            'Allow (default): jobs may run concurrently; Forbid: skip a run while the previous one has not finished; Replace: delete the running job and start a new one.',
        }),
      ),
    ),
    paused: Type.Optional(Type.Boolean({ description: 'Paused will pause the cron job.' })),
    successfulJobsHistoryLimit: Type.Optional(Int32({ description: 'The number of successful finished jobs to retain.' })),
    failedJobsHistoryLimit: Type.Optional(Int32({ description: 'The number of failed finished jobs to retain.' })),
    template: CronJobTemplateSchema,
  },
  { description: 'AdvancedCronJobSpec defines the desired state of AdvancedCronJob' },
);

/** core/v1 ObjectReference of an active job (the same fields as nodeimage's `ObjectReference`). */
export const ActiveJobReferenceSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String({ description: 'API version of the referent.' })),
    kind: Type.Optional(Type.String({ description: 'Kind of the referent.' })),
    namespace: Type.Optional(Type.String({ description: 'Namespace of the referent.' })),
    name: Type.Optional(Type.String({ description: 'Name of the referent.' })),
    uid: Type.Optional(Type.String({ description: 'UID of the referent.' })),
    resourceVersion: Type.Optional(Type.String({ description: 'Specific resourceVersion to which this reference is made, if any.' })),
    fieldPath: Type.Optional(Type.String({ description: 'A part of the referent, if any.' })),
  },
  { description: 'ObjectReference contains enough information to let you inspect or modify the referred object.', 'x-kubernetes-map-type': 'atomic' },
);

export const AdvancedCronJobStatusSchema = Type.Object(
  {
    type: Type.Optional(OpenStringEnum(TEMPLATE_KINDS, { description: 'What the template creates: Job or BroadcastJob.' })),
    active: Type.Optional(Type.Array(ActiveJobReferenceSchema, { description: 'A list of pointers to currently running jobs.' })),
    lastScheduleTime: Type.Optional(Time({ description: 'Information when was the last time the job was successfully scheduled.' })),
  },
  { description: 'AdvancedCronJobStatus defines the observed state of AdvancedCronJob' },
);

export const AdvancedCronJobSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(ObjectMetaSchema()),
    spec: Type.Optional(AdvancedCronJobSpecSchema),
    status: Type.Optional(AdvancedCronJobStatusSchema),
  },
  { description: 'AdvancedCronJob is the Schema for the advancedcronjobs API' },
);

export type BroadcastJobTemplateSpec = Static<typeof BroadcastJobTemplateSpecSchema>;
export type CronJobTemplate = Static<typeof CronJobTemplateSchema>;
export type AdvancedCronJobSpec = Static<typeof AdvancedCronJobSpecSchema>;
export type AdvancedCronJobStatus = Static<typeof AdvancedCronJobStatusSchema>;
/** An AdvancedCronJob (either version: same fields); every usable object has a spec. */
export type AdvancedCronJob = Omit<Static<typeof AdvancedCronJobSchema>, 'spec'> & { spec: AdvancedCronJobSpec };
