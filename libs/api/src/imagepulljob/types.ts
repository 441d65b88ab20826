/**
 * ImagePullJob, `apps.kruise.io/v1beta1` (stored; the controller works on it) and `v1alpha1` (served, same fields) —
 * field names, JSON types and optionality as OpenKruise (`apis/apps/v1beta1/imagepulljob_types.go`,
 * `apis/apps/v1alpha1/imagepulljob_types.go`; `CompletionPolicy` is BroadcastJob's type). The schemas are the source
 * of both the static types and the CRD.
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorRequirementSchema } from '../schemas/label-selector.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, StringMap, Time } from '../schemas/scalars.js';

export const IMAGE_PULL_JOB_KIND = 'ImagePullJob';
export const IMAGE_PULL_JOB_PLURAL = 'imagepulljobs';
/** The version the controller reads and writes (the storage version). */
export const IMAGE_PULL_JOB_API_VERSION = APPS_V1BETA1;
export const IMAGE_PULL_JOB_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;
/** Controller name (`pkg/controller/imagepulljob`), also the event component. */
export const IMAGE_PULL_JOB_CONTROLLER_NAME = 'imagepulljob-controller';

/** `spec.completionPolicy.type`. */
export const COMPLETION_POLICY_TYPES = ['Always', 'Never'] as const;
export type CompletionPolicyType = (typeof COMPLETION_POLICY_TYPES)[number];
/** `spec.imagePullPolicy` and a NodeImage tag's `imagePullPolicy`. */
export const IMAGE_PULL_POLICIES = ['Always', 'IfNotPresent'] as const;
export type ImagePullPolicy = (typeof IMAGE_PULL_POLICIES)[number];

/** Defaults (`apis/apps/defaults/v1alpha1.go` SetDefaultsImagePullJob, controller behaviour). */
export const DEFAULT_PULL_TIMEOUT_SECONDS = 600;
export const DEFAULT_PULL_BACKOFF_LIMIT = 3;
/** `parallelism` unset → 1 (the controller's reading, not a stored default). */
export const DEFAULT_IMAGE_PULL_JOB_PARALLELISM = 1;
export const DEFAULT_COMPLETION_POLICY_TYPE: CompletionPolicyType = 'Always';
export const DEFAULT_IMAGE_PULL_POLICY: ImagePullPolicy = 'IfNotPresent';

/** Keys the ImagePullJob controller writes (`pkg/controller/imagepulljob/imagepulljob_utils.go`). */
export const ImagePullJobKeys = {
  /** Finalizer on every job, removed after its synced secrets are released. */
  DeletionProtectionFinalizer: 'apps.kruise.io/deletion-protection',
  /** Annotation on a synced secret: `<ns>/<name>` of its source. */
  SourceKey: 'imagepulljobs.kruise.io/source-key',
  /** Annotation on a synced secret: sorted comma-separated `<ns>/<job>` of the jobs using it. */
  References: 'imagepulljobs.kruise.io/references',
  /** Annotation on a synced secret: `batch` (shared between jobs). */
  Mode: 'imagepulljobs.kruise.io/mode',
  /** Legacy label on synced secrets (no longer written). */
  SourceUid: 'imagepulljobs.kruise.io/source-uid',
  /** CRI sandbox annotation on pull requests (value `kruise-daemon`). */
  PullingImageBy: 'apps.kruise.io/pulling-image-by',
} as const;
/** `imagepulljobs.kruise.io/mode` / NodeImage `pullSecrets[].mode` value of the shared-secret scheme. */
export const SECRET_MODE_BATCH = 'batch';
/** Namespace synced secrets live in (env `KRUISE_DAEMON_CONFIG_NS` overrides). */
export const DEFAULT_DAEMON_CONFIG_NAMESPACE = 'kruise-daemon-config';
export const DAEMON_CONFIG_NAMESPACE_ENV = 'KRUISE_DAEMON_CONFIG_NS';

export const SandboxConfigSchema = Type.Object(
  {
    labels: Type.Optional(StringMap({ description: 'Labels passed to the CRI PullImage sandbox config.' })),
    annotations: Type.Optional(StringMap({ description: 'Annotations passed to the CRI PullImage sandbox config.' })),
  },
  { description: 'Metadata attached to the CRI PullImage request.' },
);

export const ImagePullJobPullPolicySchema = Type.Object(
  {
    timeoutSeconds: Type.Optional(Int32({ description: 'Timeout of one pull attempt; default 600.' })),
    backoffLimit: Type.Optional(Int32({ description: 'Retries before the pull is marked failed; default 3.' })),
  },
  { description: 'Parameters of the pull on each node.' },
);

export const CompletionPolicySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(COMPLETION_POLICY_TYPES, {
        description: 'Always (default): the job finishes once every node is done; Never: it keeps warming new nodes.',
      }),
    ),
    activeDeadlineSeconds: Type.Optional(
      Int64({ description: 'Seconds after startTime the job may stay active (Always only).' }),
    ),
    ttlSecondsAfterFinished: Type.Optional(
      Int32({ description: 'Seconds after completion the job is deleted (Always only).' }),
    ),
  },
  { description: 'When the job is finished.' },
);

const labelSelectorFields = {
  matchExpressions: Type.Optional(
    Type.Array(LabelSelectorRequirementSchema, {
      description: 'Requirements that must all hold.',
      'x-kubernetes-list-type': 'atomic',
    }),
  ),
  matchLabels: Type.Optional(StringMap({ description: 'Labels that must all be present with these values.' })),
};

export const ImagePullJobNodeSelectorSchema = Type.Object(
  {
    names: Type.Optional(Type.Array(Type.String(), { description: 'Node names (not combined with labels).' })),
    ...labelSelectorFields,
  },
  { description: 'The nodes to pull on: names, or a label query over the nodes (NodeImages).' },
);

export const ImagePullJobPodSelectorSchema = Type.Object(labelSelectorFields, {
  description: 'Pull on the nodes of the pods (in the job namespace) this label query matches.',
});

export const ImagePullJobSpecSchema = Type.Object(
  {
    image: Type.String({ description: 'The image to pull: name:tag or name@digest.' }),
    pullSecrets: Type.Optional(
      Type.Array(Type.String(), { description: 'Names of secrets in the job namespace used to pull; immutable.' }),
    ),
    selector: Type.Optional(ImagePullJobNodeSelectorSchema),
    podSelector: Type.Optional(ImagePullJobPodSelectorSchema),
    parallelism: Type.Optional(
      IntOrString({ description: 'Most nodes pulling at once (an integer; 0 pauses); default 1.' }),
    ),
    pullPolicy: Type.Optional(ImagePullJobPullPolicySchema),
    completionPolicy: CompletionPolicySchema,
    sandboxConfig: Type.Optional(SandboxConfigSchema),
    imagePullPolicy: Type.Optional(
      OpenStringEnum(IMAGE_PULL_POLICIES, {
        description: 'IfNotPresent (default): skip nodes that have the image; Always: pull again.',
      }),
    ),
  },
  { description: 'The desired state of the ImagePullJob.' },
);

export const ImagePullJobStatusSchema = Type.Object(
  {
    startTime: Type.Optional(Time({ description: 'When the controller first handled the job.' })),
    completionTime: Type.Optional(Time({ description: 'When the job finished.' })),
    desired: Int32({ description: 'Number of nodes the job pulls on.' }),
    active: Type.Optional(Int32({ description: 'Nodes whose pull is written but not finished.' })),
    succeeded: Type.Optional(Int32({ description: 'Nodes where the pull succeeded.' })),
    failed: Type.Optional(Int32({ description: 'Nodes where the pull failed.' })),
    message: Type.Optional(Type.String({ description: 'Summary of the job state.' })),
    failedNodes: Type.Optional(Type.Array(Type.String(), { description: 'Names of the nodes whose pull failed.' })),
  },
  { description: 'The observed state of the ImagePullJob.' },
);

export const ImagePullJobSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(ImagePullJobSpecSchema),
  status: Type.Optional(ImagePullJobStatusSchema),
});

export type SandboxConfig = Static<typeof SandboxConfigSchema>;
export type ImagePullJobPullPolicy = Static<typeof ImagePullJobPullPolicySchema>;
export type CompletionPolicy = Static<typeof CompletionPolicySchema>;
export type ImagePullJobNodeSelector = Static<typeof ImagePullJobNodeSelectorSchema>;
export type ImagePullJobPodSelector = Static<typeof ImagePullJobPodSelectorSchema>;
export type ImagePullJobSpec = Static<typeof ImagePullJobSpecSchema>;
export type ImagePullJobStatus = Static<typeof ImagePullJobStatusSchema>;
/** An ImagePullJob (either version: same fields); `spec` is optional in the schema but every usable object has one. */
export type ImagePullJob = Omit<Static<typeof ImagePullJobSchema>, 'spec'> & { spec: ImagePullJobSpec };

/** `status.message` texts (`pkg/controller/imagepulljob/imagepulljob_controller.go` calculateStatus). */
export const ImagePullJobMessages = {
  Completed: 'job has completed',
  NoProgress: 'job is running, no progress',
  ExceedsActiveDeadline: 'job exceeds activeDeadlineSeconds',
  /** `job is running, progress X.Y%`. */
  progress: (percent: number): string => `job is running, progress ${percent.toFixed(1)}%`,
} as const;
