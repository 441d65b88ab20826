/**
 * ResourceDistribution (cluster-scoped) — PLACEHOLDER. Names, versions, subresources and printer columns are
 * OpenKruise v1.9's (v1alpha1 only; v1beta1 came after v1.9); the spec/status schema is a shell kept whole until
 * the resourcedistribution controller brings the full schema.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import type { CrdDefinition } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';

export const RESOURCE_DISTRIBUTION_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'ResourceDistribution',
  listKind: 'ResourceDistributionList',
  plural: 'resourcedistributions',
  singular: 'resourcedistribution',
  shortNames: ['distributor'],
  scope: 'Cluster',
  placeholder: true,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: placeholderKindSchema(),
      subresources: { status: true },
      // OpenKruise has no AGE column here
      printerColumns: [
        intColumn('TOTAL', '.status.desired', 'Namespaces the resource should be distributed to.'),
        intColumn('SUCCEED', '.status.succeeded', 'Namespaces where the resource is up to date.'),
        intColumn('FAILED', '.status.failed', 'Namespaces where distributing failed.'),
      ],
    },
  ],
};
