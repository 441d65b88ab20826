/**
 * NodeImage (cluster-scoped, one per Node, same name), `apps.kruise.io/v1beta1` (stored) and `v1alpha1` (served) —
 * field names, JSON types and optionality as OpenKruise (`apis/apps/v1beta1/nodeimage_types.go`,
 * `apis/apps/v1alpha1/nodeimage_types.go`). The versions differ only in `spec.images[].pullSecrets[].mode`
 * (v1beta1). The schemas are the source of both the static types and the CRD.
 */
import { Type, type Static } from '@sinclair/typebox';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { SandboxConfigSchema, IMAGE_PULL_POLICIES } from '../imagepulljob/types.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, Time } from '../schemas/scalars.js';

export const NODE_IMAGE_KIND = 'NodeImage';
export const NODE_IMAGE_PLURAL = 'nodeimages';
/** The version the controllers and agents read and write (the storage version). */
export const NODE_IMAGE_API_VERSION = APPS_V1BETA1;
export const NODE_IMAGE_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;
/** Controller name (`pkg/controller/nodeimage`), also the event component of its events. */
export const NODE_IMAGE_CONTROLLER_NAME = 'nodeimage-controller';
/** Event component of the per-node image puller (kruise-daemon). */
export const IMAGE_PULLER_COMPONENT = 'kruise-daemon-imagepuller';

/** At most this many images in `spec.images`. */
export const MAX_NODE_IMAGE_IMAGES = 256;

/** `status.imageStatuses[].tags[].phase`. */
export const IMAGE_PULL_PHASES = ['Waiting', 'Pulling', 'Succeeded', 'Failed'] as const;
export type ImagePullPhase = (typeof IMAGE_PULL_PHASES)[number];
export const ImagePullPhases = {
  Waiting: 'Waiting',
  Pulling: 'Pulling',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
} as const satisfies Record<ImagePullPhase, ImagePullPhase>;

/** `status.firstSyncStatus.status`. */
export const SYNC_STATUS_PHASES = ['Succeeded', 'Failed'] as const;
export type SyncStatusPhase = (typeof SYNC_STATUS_PHASES)[number];

/** Labels on NodeImages / Nodes with a meaning to the NodeImage controller. */
export const NodeImageLabels = {
  /** A test NodeImage not bound to a Node: never deleted by the controller. */
  FakeNodeImage: 'apps.kruise.io/fake-nodeimage',
  /** Nodes with `type=virtual-kubelet` get no NodeImage. */
  NodeType: 'type',
} as const;
export const VIRTUAL_KUBELET_NODE_TYPE = 'virtual-kubelet';

/** Event reasons (NodeImage controller and image puller). */
export const NodeImageEventReasons = {
  PullImageSucceed: 'PullImageSucceed',
  PullImageFailed: 'PullImageFailed',
} as const;

/** Messages of the NodeImage controller's status guard (`pkg/controller/nodeimage/nodeimage_controller.go`). */
export const NodeImageMessages = {
  NotResponded: 'node has not responded for a long time',
  ExceedsActiveDeadline: 'pulling exceeds the activeDeadlineSeconds',
} as const;

const referenceObjectFields = {
  namespace: Type.Optional(Type.String({ description: 'Namespace of the secret.' })),
  name: Type.Optional(Type.String({ description: 'Name of the secret.' })),
};
export const ReferenceObjectSchema = Type.Object(
  {
    ...referenceObjectFields,
    mode: Type.Optional(Type.String({ description: '`batch`: a secret shared between jobs, removed with the image entry.' })),
  },
  { description: 'A secret, `<namespace>/<name>`.' },
);
export const ReferenceObjectV1alpha1Schema = Type.Object(referenceObjectFields, {
  description: 'A secret, `<namespace>/<name>`.',
});

/** core/v1 ObjectReference (as an ImageTagSpec owner). */
export const ObjectReferenceSchema = Type.Object(
  {
    kind: Type.Optional(Type.String()),
    namespace: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    uid: Type.Optional(Type.String()),
    apiVersion: Type.Optional(Type.String()),
    resourceVersion: Type.Optional(Type.String()),
    fieldPath: Type.Optional(Type.String()),
  },
  { description: 'A reference to an owner of this tag (an ImagePullJob).', 'x-kubernetes-map-type': 'atomic' },
);

export const ImageTagPullPolicySchema = Type.Object(
  {
    timeoutSeconds: Type.Optional(Int32({ description: 'Timeout of one pull attempt; default 600.' })),
    backoffLimit: Type.Optional(Int32({ description: 'Retries before the pull is marked failed; default 3.' })),
    ttlSecondsAfterFinished: Type.Optional(
      Int32({ description: 'Seconds after the pull finished the tag is removed (required by the webhook).' }),
    ),
    activeDeadlineSeconds: Type.Optional(Int64({ description: 'Seconds the whole pull (all attempts) may take.' })),
  },
  { description: 'Parameters of the pull of this tag.' },
);

export const ImageTagSpecSchema = Type.Object(
  {
    tag: Type.String({ description: 'The image tag (or digest).' }),
    createdAt: Type.Optional(Time({ description: 'When this tag (version) was requested.' })),
    pullPolicy: Type.Optional(ImageTagPullPolicySchema),
    ownerReferences: Type.Optional(
      Type.Array(ObjectReferenceSchema, { description: 'The ImagePullJobs that want this tag.' }),
    ),
    version: Type.Optional(Int64({ description: 'Bumped to request a new pull of the tag.' })),
    imagePullPolicy: Type.Optional(
      OpenStringEnum(IMAGE_PULL_POLICIES, { description: 'IfNotPresent or Always (pull even when present).' }),
    ),
  },
  { description: 'A tag of the image to pull on this node.' },
);

function imageSpecSchema<R extends typeof ReferenceObjectSchema | typeof ReferenceObjectV1alpha1Schema>(reference: R) {
  return Type.Object(
    {
      pullSecrets: Type.Optional(
        Type.Array(reference, { description: 'Secrets (in the daemon config namespace) used to pull.' }),
      ),
      tags: Type.Array(ImageTagSpecSchema, { description: 'Tags of this image to pull.' }),
      sandboxConfig: Type.Optional(SandboxConfigSchema),
    },
    { description: 'An image to pull on this node.' },
  );
}
export const ImageSpecSchema = imageSpecSchema(ReferenceObjectSchema);
export const ImageSpecV1alpha1Schema = imageSpecSchema(ReferenceObjectV1alpha1Schema);

export const NodeImageSpecSchema = Type.Object(
  {
    images: Type.Optional(
      Type.Record(Type.String(), ImageSpecSchema, {
        description: 'Images to pull on this node by name (registry/repository, no tag); at most 256.',
      }),
    ),
  },
  { description: 'The images this node should have.' },
);
export const NodeImageV1alpha1SpecSchema = Type.Object(
  {
    images: Type.Optional(
      Type.Record(Type.String(), ImageSpecV1alpha1Schema, {
        description: 'Images to pull on this node by name (registry/repository, no tag); at most 256.',
      }),
    ),
  },
  { description: 'The images this node should have.' },
);

export const ImageTagStatusSchema = Type.Object(
  {
    tag: Type.String({ description: 'The image tag.' }),
    phase: OpenStringEnum(IMAGE_PULL_PHASES, { description: 'Waiting, Pulling, Succeeded or Failed.' }),
    progress: Type.Optional(Int32({ description: 'Pull progress, 0-100.' })),
    startTime: Type.Optional(Time({ description: 'When the puller acknowledged the pull.' })),
    completionTime: Type.Optional(Time({ description: 'When the pull finished.' })),
    version: Type.Optional(Int64({ description: 'The spec version of the tag this status is for.' })),
    imageID: Type.Optional(Type.String({ description: 'The pulled image id.' })),
    message: Type.Optional(Type.String({ description: 'Why the pull failed, or a summary.' })),
  },
  { description: 'The pull status of a tag.' },
);

export const ImageStatusSchema = Type.Object(
  { tags: Type.Array(ImageTagStatusSchema, { description: 'Pull statuses of the tags of this image.' }) },
  { description: 'The pull status of an image.' },
);

export const SyncStatusSchema = Type.Object(
  {
    syncAt: Type.Optional(Time()),
    status: Type.Optional(OpenStringEnum(SYNC_STATUS_PHASES)),
    message: Type.Optional(Type.String()),
  },
  { description: 'When the first pulls on a new node finished.' },
);

export const NodeImageStatusSchema = Type.Object(
  {
    desired: Int32({ description: 'Number of tags in spec.' }),
    succeeded: Type.Optional(Int32({ description: 'Tags pulled.' })),
    failed: Type.Optional(Int32({ description: 'Tags whose pull failed.' })),
    pulling: Type.Optional(Int32({ description: 'Tags being pulled.' })),
    waiting: Type.Optional(Int32({ description: 'Tags waiting to be pulled.' })),
    imageStatuses: Type.Optional(
      Type.Record(Type.String(), ImageStatusSchema, { description: 'Pull statuses by image name.' }),
    ),
    firstSyncStatus: Type.Optional(SyncStatusSchema),
  },
  { description: 'The pull progress on this node.' },
);

export const NodeImageSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(NodeImageSpecSchema),
  status: Type.Optional(NodeImageStatusSchema),
});
export const NodeImageV1alpha1Schema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(NodeImageV1alpha1SpecSchema),
  status: Type.Optional(NodeImageStatusSchema),
});

export type ReferenceObject = Static<typeof ReferenceObjectSchema>;
export type ObjectReference = Static<typeof ObjectReferenceSchema>;
export type ImageTagPullPolicy = Static<typeof ImageTagPullPolicySchema>;
export type ImageTagSpec = Static<typeof ImageTagSpecSchema>;
export type ImageSpec = Static<typeof ImageSpecSchema>;
export type NodeImageSpec = Static<typeof NodeImageSpecSchema>;
export type ImageTagStatus = Static<typeof ImageTagStatusSchema>;
export type ImageStatus = Static<typeof ImageStatusSchema>;
export type SyncStatus = Static<typeof SyncStatusSchema>;
export type NodeImageStatus = Static<typeof NodeImageStatusSchema>;
export type NodeImage = Static<typeof NodeImageSchema>;
