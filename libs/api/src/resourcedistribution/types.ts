/**
 * ResourceDistribution (cluster-scoped), `apps.kruise.io/v1beta1` (stored; the controller reads and writes it) and
 * `v1alpha1` (served) — field names, JSON types and optionality as OpenKruise
 * (`apis/apps/v1beta1/resourcedistribution_types.go`, `apis/apps/v1alpha1/resourcedistribution_types.go`).
 *
 * The two versions differ in two names: the namespace label selector (`targets.namespaceLabelSelector` in v1alpha1,
 * `targets.namespaceSelector` in v1beta1) and a condition's failed namespaces (`failedNamespace` / `failedNamespaces`).
 * The CRD has no conversion webhook (docs/adr/0030-resourcedistribution-versions-and-secrets.md): both versions'
 * schemas declare both names, the mutating webhook keeps the two selectors equal and the controller writes both
 * condition lists, so a reader of either version finds its own field.
 */
import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import type { KubeObject } from '@regatta/kube';
import { APPS_V1ALPHA1, APPS_V1BETA1 } from '../group.js';
import { described } from '../schemas/describe.js';
import { LabelSelectorSchema } from '../schemas/label-selector.js';
import { ObjectMetaSchema } from '../schemas/object-meta.js';
import { Int32, Int64, Time } from '../schemas/scalars.js';

export const RESOURCE_DISTRIBUTION_KIND = 'ResourceDistribution';
/** The version the controller reads and writes (the storage version). */
export const RESOURCE_DISTRIBUTION_API_VERSION = APPS_V1BETA1;
export const RESOURCE_DISTRIBUTION_V1ALPHA1_API_VERSION = APPS_V1ALPHA1;

/** The six condition types, in the fixed order of `status.conditions` (`pkg/controller/resourcedistribution/utils.go`). */
export const RESOURCE_DISTRIBUTION_CONDITION_TYPES = [
  'GetResourceFailed',
  'CreateResourceFailed',
  'UpdateResourceFailed',
  'DeleteResourceFailed',
  'ConflictOccurred',
  'NamespaceNotExists',
] as const;
export type ResourceDistributionConditionType = (typeof RESOURCE_DISTRIBUTION_CONDITION_TYPES)[number];

/** `reason` of a condition whose status is False. */
export const RESOURCE_DISTRIBUTION_SUCCEEDED_REASON = 'Succeeded';

/** Namespaces a ResourceDistribution never distributes to, whatever its targets say (HEAD). */
export const RESOURCE_DISTRIBUTION_SYSTEM_NAMESPACES: readonly string[] = ['kube-system', 'kube-public'];

/** The only kinds a ResourceDistribution may carry (group '' for core). */
export const RESOURCE_DISTRIBUTION_SUPPORTED_KINDS: readonly { group: string; kind: string }[] = [
  { group: '', kind: 'Secret' },
  { group: '', kind: 'ConfigMap' },
];

/** Annotations on every distributed copy (§9.3). */
export const ResourceDistributionAnnotations = {
  /** hex SHA-256 of the raw `spec.resource`. */
  ResourceHashCode: 'kruise.io/resourcedistribution.resource.hashcode',
  /** The ResourceDistribution's name. */
  ResourceFrom: 'kruise.io/resourcedistribution.resource.from',
} as const;

/** The feature gate; OpenKruise answers 403 while it is off. */
export const RESOURCE_DISTRIBUTION_GATE = 'ResourceDistributionGate';

const NamespaceListSchema = (description: string) =>
  Type.Object(
    {
      list: Type.Optional(
        Type.Array(Type.Object({ name: Type.Optional(Type.String({ description: 'A namespace name.' })) }), {
          description: 'The namespaces.',
        }),
      ),
    },
    { description },
  );

/** The embedded Secret or ConfigMap, whole (`x-kubernetes-embedded-resource`, unknown fields preserved). */
const EmbeddedResourceSchema = (): TUnsafe<KubeObject & Record<string, unknown>> =>
  Type.Unsafe<KubeObject & Record<string, unknown>>(
    Type.Object(
      {},
      {
        description: 'The Secret or ConfigMap to distribute (its metadata.namespace is ignored).',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
    ),
  );

const TargetsSchema = Type.Object(
  {
    allNamespaces: Type.Optional(
      Type.Boolean({ description: 'All namespaces (never kube-system and kube-public).' }),
    ),
    excludedNamespaces: Type.Optional(
      NamespaceListSchema('Namespaces never distributed to; they take precedence over every other target.'),
    ),
    includedNamespaces: Type.Optional(NamespaceListSchema('Namespaces distributed to, by name.')),
    namespaceSelector: Type.Optional(
      described(LabelSelectorSchema, 'Namespaces distributed to, by label (v1beta1 name).'),
    ),
    namespaceLabelSelector: Type.Optional(
      described(LabelSelectorSchema, 'Namespaces distributed to, by label (v1alpha1 name).'),
    ),
  },
  { description: 'Where the resource is distributed.' },
);

export const ResourceDistributionSpecSchema = Type.Object(
  { resource: EmbeddedResourceSchema(), targets: TargetsSchema },
  { description: 'The resource and where it is distributed.' },
);

export const ResourceDistributionConditionSchema = Type.Object({
  type: Type.String({ description: 'One of the six condition types.' }),
  status: Type.String({ description: 'True when at least one namespace failed this way.' }),
  lastTransitionTime: Type.Optional(Time({ description: 'When status last changed.' })),
  reason: Type.Optional(Type.String({ description: 'The last error, or Succeeded.' })),
  failedNamespaces: Type.Optional(Type.Array(Type.String(), { description: 'The namespaces (v1beta1 name).' })),
  failedNamespace: Type.Optional(Type.Array(Type.String(), { description: 'The namespaces (v1alpha1 name).' })),
});

export const ResourceDistributionStatusSchema = Type.Object(
  {
    desired: Type.Optional(Int32({ description: 'Matched namespaces.' })),
    succeeded: Type.Optional(Int32({ description: 'Matched namespaces whose copy is up to date.' })),
    failed: Type.Optional(Int32({ description: 'desired − succeeded.' })),
    observedGeneration: Type.Optional(Int64({ description: 'The generation reconciled.' })),
    conditions: Type.Optional(
      Type.Array(ResourceDistributionConditionSchema, { description: 'The six conditions, in a fixed order.' }),
    ),
  },
  { description: 'The observed state of the ResourceDistribution.' },
);

export const ResourceDistributionSchema = Type.Object({
  apiVersion: Type.Optional(Type.String()),
  kind: Type.Optional(Type.String()),
  metadata: Type.Optional(ObjectMetaSchema()),
  spec: Type.Optional(ResourceDistributionSpecSchema),
  status: Type.Optional(ResourceDistributionStatusSchema),
});

export type ResourceDistributionTargets = Static<typeof TargetsSchema>;
export type ResourceDistributionSpec = Static<typeof ResourceDistributionSpecSchema>;
export type ResourceDistributionCondition = Static<typeof ResourceDistributionConditionSchema>;
export type ResourceDistributionStatus = Static<typeof ResourceDistributionStatusSchema>;
/** A ResourceDistribution of either version; `spec` is required by the CRD. */
export type ResourceDistribution = Omit<Static<typeof ResourceDistributionSchema>, 'spec'> & {
  spec: ResourceDistributionSpec;
};
