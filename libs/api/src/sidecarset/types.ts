/**
 * SidecarSet (cluster-scoped), `apps.kruise.io/v1beta1` (stored; the controller and the pod webhook work on it) and
 * `v1alpha1` (served) — field names, JSON types and optionality as OpenKruise (`apis/apps/v1beta1/sidecarset_types.go`,
 * `apis/apps/v1alpha1/sidecarset_types.go`). The schemas are the source of both the static types and the CRD.
 *
 * The two versions differ in two places: v1alpha1 has `spec.namespace` (one namespace; the v1beta1 equivalent is
 * `namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: <ns>}}`), and v1beta1 has `spec.customVersion`
 * (v1alpha1 keeps it in the label `apps.kruise.io/sidecarset-custom-version`).
 *
 * Sidecar containers are core/v1 Containers plus the sidecar fields; as upstream's CRD, the schema declares only the
 * sidecar fields and keeps the container fields whole (`x-kubernetes-preserve-unknown-fields`); the webhook validates
 * them. `spec.volumeTemplates` is a Regatta alias of `spec.volumes` (docs/adr/0025-sidecarset-api.md): declared so the
 * API server does not prune it, moved into `volumes` by the mutating webhook (with a warning), never stored.
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import type { Container, Volume } from '../core/pod-types.js';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { described } from '../schemas/describe.js';
import { IntOrString } from '../schemas/int-or-string.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, OpenStringEnum, StringMap } from '../schemas/scalars.js';
import { UpdateScatterStrategySchema } from '../schemas/scatter-strategy.js';
import { UpdatePriorityStrategySchema } from '../schemas/update-priority.js';

export const SIDECARSET_KIND = 'SidecarSet';
/** The version the controller and the pod webhook read and write (the storage version). */
export const SIDECARSET_API_VERSION = APPS_V1BETA1;
export const SIDECARSET_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;

/** `SidecarContainer.podInjectPolicy`. */
export const POD_INJECT_POLICIES = ['BeforeAppContainer', 'AfterAppContainer'] as const;
export type PodInjectPolicy = (typeof POD_INJECT_POLICIES)[number];

/** `SidecarContainer.upgradeStrategy.upgradeType`. */
export const SIDECAR_UPGRADE_TYPES = ['ColdUpgrade', 'HotUpgrade'] as const;
export type SidecarContainerUpgradeType = (typeof SIDECAR_UPGRADE_TYPES)[number];

/** `SidecarContainer.shareVolumePolicy.type` and `shareVolumeDevicePolicy.type`. */
export const SHARE_VOLUME_POLICY_TYPES = ['enabled', 'disabled'] as const;
export type ShareVolumePolicyType = (typeof SHARE_VOLUME_POLICY_TYPES)[number];

/** `SidecarContainer.resourcesPolicy.targetContainersMode`. */
export const TARGET_CONTAINERS_MODES = ['sum', 'max'] as const;
export type TargetContainersMode = (typeof TARGET_CONTAINERS_MODES)[number];

/** `spec.updateStrategy.type`. */
export const SIDECARSET_UPDATE_STRATEGY_TYPES = ['RollingUpdate', 'NotUpdate'] as const;
export type SidecarSetUpdateStrategyType = (typeof SIDECARSET_UPDATE_STRATEGY_TYPES)[number];

/** `spec.patchPodMetadata[].patchPolicy`. */
export const SIDECARSET_PATCH_POLICIES = ['Retain', 'Overwrite', 'MergePatchJson'] as const;
export type SidecarSetPatchPolicy = (typeof SIDECARSET_PATCH_POLICIES)[number];

/** `spec.injectionStrategy.revision.policy`. */
export const SIDECARSET_INJECT_REVISION_POLICIES = ['Always', 'Partial'] as const;
export type SidecarSetInjectRevisionPolicy = (typeof SIDECARSET_INJECT_REVISION_POLICIES)[number];

/** Defaults (`apis/apps/defaults/v1beta1.go` SetDefaultsSidecarSetV1beta1). */
export const DEFAULT_SIDECARSET_MAX_UNAVAILABLE = 1;
export const DEFAULT_SIDECARSET_PARTITION = 0;
export const DEFAULT_SIDECARSET_REVISION_HISTORY_LIMIT = 10;
/** `resourcesPolicy.targetContainersNameRegex` default (a CRD default upstream). */
export const DEFAULT_TARGET_CONTAINERS_NAME_REGEX = '.*';

export const ShareVolumePolicySchema = Type.Object(
  { type: Type.Optional(OpenStringEnum(SHARE_VOLUME_POLICY_TYPES, { description: 'enabled or disabled (default).' })) },
  { description: 'Whether the sidecar mounts the volumes of the pod’s app containers.' },
);

/** core/v1 ObjectFieldSelector. */
export const ObjectFieldSelectorSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String({ description: 'Version of the schema fieldPath is written in ("v1").' })),
    fieldPath: Type.String({ description: "metadata.labels['<key>'] or metadata.annotations['<key>']." }),
  },
  { 'x-kubernetes-map-type': 'atomic' },
);

export const TransferEnvVarSchema = Type.Object(
  {
    sourceContainerName: Type.Optional(Type.String({ description: 'The app container whose env is copied.' })),
    sourceContainerNameFrom: Type.Optional(
      Type.Object(
        { fieldRef: Type.Optional(ObjectFieldSelectorSchema) },
        { description: 'Where the source container name is read (a pod label or annotation).' },
      ),
    ),
    envName: Type.Optional(Type.String({ description: 'One env var to copy.' })),
    envNames: Type.Optional(Type.Array(Type.String(), { description: 'Env vars to copy.' })),
  },
  { description: 'Env vars copied from an app container into the sidecar at injection.' },
);

const ResourceExprSchema = (description: string) =>
  Type.Object(
    {
      cpu: Type.Optional(Type.String({ description: 'Expression over `cpu` (+ - * / max() min()).' })),
      memory: Type.Optional(Type.String({ description: 'Expression over `memory` (+ - * / max() min()).' })),
    },
    { description },
  );

export const ResourcesPolicySchema = Type.Object(
  {
    targetContainersMode: Type.Unsafe<TargetContainersMode>(
      Type.String({ enum: [...TARGET_CONTAINERS_MODES], description: 'sum or max over the target containers.' }),
    ),
    targetContainersNameRegex: Type.Optional(
      Type.String({ default: DEFAULT_TARGET_CONTAINERS_NAME_REGEX, description: 'Names of the target containers.' }),
    ),
    resourcesExpr: Type.Object(
      {
        limits: Type.Optional(ResourceExprSchema('Expressions for the sidecar’s limits.')),
        requests: Type.Optional(ResourceExprSchema('Expressions for the sidecar’s requests.')),
      },
      { description: 'How the sidecar’s resources are computed from the target containers’.' },
    ),
  },
  { description: 'The sidecar’s resources computed from the app containers’ at injection (v1.9).' },
);

export const SidecarContainerUpgradeStrategySchema = Type.Object(
  {
    upgradeType: Type.Optional(
      OpenStringEnum(SIDECAR_UPGRADE_TYPES, { description: 'ColdUpgrade (default) or HotUpgrade.' }),
    ),
    hotUpgradeEmptyImage: Type.Optional(
      Type.String({ description: 'HotUpgrade: the image the idle twin container runs.' }),
    ),
  },
  { description: 'How the sidecar is upgraded in place: ColdUpgrade or HotUpgrade.' },
);

/** The sidecar fields a SidecarContainer adds to core/v1 Container. */
export const SidecarContainerFieldsSchema = Type.Object({
  podInjectPolicy: Type.Optional(
    OpenStringEnum(POD_INJECT_POLICIES, {
      description: 'BeforeAppContainer (default for containers) or AfterAppContainer (default for initContainers).',
    }),
  ),
  upgradeStrategy: Type.Optional(SidecarContainerUpgradeStrategySchema),
  shareVolumePolicy: Type.Optional(ShareVolumePolicySchema),
  shareVolumeDevicePolicy: Type.Optional(
    described(ShareVolumePolicySchema, 'Whether the sidecar gets the volumeDevices of the app containers.'),
  ),
  transferEnv: Type.Optional(Type.Array(TransferEnvVarSchema)),
  resourcesPolicy: Type.Optional(ResourcesPolicySchema),
});

export type SidecarContainerFields = Static<typeof SidecarContainerFieldsSchema>;
/** A sidecar container: a core/v1 Container plus the sidecar fields. */
export type SidecarContainer = Container & SidecarContainerFields;

export const SidecarContainerSchema: TUnsafe<SidecarContainer> = Type.Unsafe<SidecarContainer>({
  ...SidecarContainerFieldsSchema,
  description: 'A core/v1 Container plus the sidecar fields.',
  'x-kubernetes-preserve-unknown-fields': true,
});

/** core/v1 Volumes, kept whole (upstream's CRD: `x-kubernetes-preserve-unknown-fields`). */
const VolumesSchema = (description: string): TUnsafe<Volume[]> =>
  Type.Unsafe<Volume[]>(Type.Array(Type.Object({}, { 'x-kubernetes-preserve-unknown-fields': true }), { description }));

export const LocalObjectReferenceSchema = Type.Object(
  { name: Type.Optional(Type.String({ default: '', description: 'Name of the referent.' })) },
  { 'x-kubernetes-map-type': 'atomic' },
);

export const SidecarSetUpdateStrategySchema = Type.Object(
  {
    type: Type.Optional(
      OpenStringEnum(SIDECARSET_UPDATE_STRATEGY_TYPES, {
        description: 'RollingUpdate (default: update injected sidecars in place) or NotUpdate.',
      }),
    ),
    paused: Type.Optional(Type.Boolean({ description: 'Stop updating pods (new pods are still injected).' })),
    selector: Type.Optional(
      described(LabelSelectorSchema, 'Only pods matching this label query are updated (canary); not with a partition.'),
    ),
    partition: Type.Optional(
      IntOrString({ description: 'Number or percentage of matched pods kept at the old sidecars; default 0.' }),
    ),
    maxUnavailable: Type.Optional(
      IntOrString({ description: 'Most matched pods unavailable during the update (number or percentage); default 1.' }),
    ),
    priorityStrategy: Type.Optional(UpdatePriorityStrategySchema),
    scatterStrategy: Type.Optional(
      described(UpdateScatterStrategySchema, 'Spread pods with these labels over the update order; value "*" = every value.'),
    ),
  },
  { description: 'How injected sidecars are updated in place.' },
);

export const SidecarSetInjectRevisionSchema = Type.Object(
  {
    customVersion: Type.Optional(Type.String({ description: 'Inject the newest revision with this custom version.' })),
    revisionName: Type.Optional(Type.String({ description: 'Inject this ControllerRevision.' })),
    policy: Type.Optional(
      Type.Unsafe<SidecarSetInjectRevisionPolicy>(
        Type.String({
          enum: [...SIDECARSET_INJECT_REVISION_POLICIES],
          default: 'Always',
          description: 'Always (default) or Partial (only pods outside the update selector / partition).',
        }),
      ),
    ),
  },
  { description: 'Inject a historical revision instead of the latest.' },
);

export const SidecarSetInjectionStrategySchema = Type.Object(
  {
    paused: Type.Optional(Type.Boolean({ description: 'Inject nothing into new pods.' })),
    revision: Type.Optional(SidecarSetInjectRevisionSchema),
  },
  { description: 'How sidecars are injected into new pods.' },
);

export const SidecarSetPatchPodMetadataSchema = Type.Object({
  annotations: Type.Optional(StringMap({ description: 'Annotations patched into the pods.' })),
  patchPolicy: Type.Optional(
    OpenStringEnum(SIDECARSET_PATCH_POLICIES, { description: 'Retain (default), Overwrite or MergePatchJson.' }),
  ),
});

const commonSpecFields = {
  selector: Type.Optional(described(LabelSelectorSchema, 'Pods that get the sidecars; required and non-empty.')),
  namespaceSelector: Type.Optional(
    described(LabelSelectorSchema, 'Namespaces whose pods get the sidecars; unset = every namespace.'),
  ),
  initContainers: Type.Optional(
    Type.Array(SidecarContainerSchema, { description: 'Init containers injected at pod creation.' }),
  ),
  containers: Type.Optional(Type.Array(SidecarContainerSchema, { description: 'Sidecar containers injected.' })),
  volumes: Type.Optional(VolumesSchema('Volumes the sidecars mount, merged into the pod.')),
  volumeTemplates: Type.Optional(
    VolumesSchema('Regatta alias of `volumes` (moved into `volumes` at admission, with a warning; never stored).'),
  ),
  updateStrategy: Type.Optional(SidecarSetUpdateStrategySchema),
  injectionStrategy: Type.Optional(SidecarSetInjectionStrategySchema),
  imagePullSecrets: Type.Optional(
    Type.Array(LocalObjectReferenceSchema, { description: 'Image pull secrets merged into the pods.' }),
  ),
  revisionHistoryLimit: Type.Optional(Int32({ description: 'How many old ControllerRevisions to keep; default 10.' })),
  patchPodMetadata: Type.Optional(
    Type.Array(SidecarSetPatchPodMetadataSchema, { description: 'Pod metadata injected and updated in place.' }),
  ),
};

export const SidecarSetSpecSchema = Type.Object(
  {
    ...commonSpecFields,
    customVersion: Type.Optional(
      Type.String({ description: 'User-chosen version, copied as a label to the latest revision.' }),
    ),
  },
  { description: 'The desired state of the SidecarSet.' },
);

export const SidecarSetV1alpha1SpecSchema = Type.Object(
  {
    ...commonSpecFields,
    namespace: Type.Optional(
      Type.String({ description: 'Deprecated: one namespace (becomes namespaceSelector in v1beta1).' }),
    ),
  },
  { description: 'The desired state of the SidecarSet.' },
);

export const SidecarSetStatusSchema = Type.Object(
  {
    observedGeneration: Type.Optional(Int64({ description: 'The generation this status was computed for.' })),
    matchedPods: Int32({ description: 'Active pods the SidecarSet selects and has injected.' }),
    updatedPods: Int32({ description: 'Matched pods whose sidecars are at the SidecarSet’s hash.' }),
    readyPods: Int32({ description: 'Matched pods that are consistent and ready.' }),
    updatedReadyPods: Type.Optional(Int32({ description: 'Matched pods both updated and ready.' })),
    latestRevision: Type.Optional(Type.String({ description: 'Name of the latest ControllerRevision.' })),
    collisionCount: Type.Optional(Int32({ description: 'Hash collisions met while naming revisions.' })),
  },
  { description: 'The observed state of the SidecarSet.' },
);

export const SidecarSetSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(SidecarSetSpecSchema),
  status: Type.Optional(SidecarSetStatusSchema),
});

export const SidecarSetV1alpha1Schema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(SidecarSetV1alpha1SpecSchema),
  status: Type.Optional(SidecarSetStatusSchema),
});

export type ShareVolumePolicy = Static<typeof ShareVolumePolicySchema>;
export type TransferEnvVar = Static<typeof TransferEnvVarSchema>;
export type ResourcesPolicy = Static<typeof ResourcesPolicySchema>;
export type SidecarContainerUpgradeStrategy = Static<typeof SidecarContainerUpgradeStrategySchema>;
export type SidecarSetUpdateStrategy = Static<typeof SidecarSetUpdateStrategySchema>;
export type SidecarSetInjectRevision = Static<typeof SidecarSetInjectRevisionSchema>;
export type SidecarSetInjectionStrategy = Static<typeof SidecarSetInjectionStrategySchema>;
export type SidecarSetPatchPodMetadata = Static<typeof SidecarSetPatchPodMetadataSchema>;
export type SidecarSetSpec = Static<typeof SidecarSetSpecSchema>;
export type SidecarSetV1alpha1Spec = Static<typeof SidecarSetV1alpha1SpecSchema>;
export type SidecarSetStatus = Static<typeof SidecarSetStatusSchema>;
/** A v1beta1 SidecarSet; `spec` is optional in the schema (as upstream) but every usable object has one. */
export type SidecarSet = Omit<Static<typeof SidecarSetSchema>, 'spec'> & { spec: SidecarSetSpec };
export type SidecarSetV1alpha1 = Omit<Static<typeof SidecarSetV1alpha1Schema>, 'spec'> & {
  spec: SidecarSetV1alpha1Spec;
};
