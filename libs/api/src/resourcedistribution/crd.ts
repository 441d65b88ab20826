import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import type { CrdDefinition, PrinterColumn } from '../crd/definition.js';
import { ResourceDistributionSchema } from './types.js';

/** `kubectl get distributor` columns, as OpenKruise's CRD (no AGE column). */
const RESOURCE_DISTRIBUTION_COLUMNS: readonly PrinterColumn[] = [
  intColumn('TOTAL', '.status.desired', 'The desired number of desired distribution and syncs.'),
  intColumn('SUCCEED', '.status.succeeded', 'The number of successful distribution and syncs.'),
  intColumn('FAILED', '.status.failed', 'The number of failed distributions and syncs.'),
];

/**
 * ResourceDistribution: names, scope (Cluster), short name `distributor`, versions, the status subresource and printer
 * columns as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_resourcedistributions.yaml`) — v1alpha1 and v1beta1
 * served, v1beta1 stored, conversion strategy None (docs/adr/0030-resourcedistribution-versions-and-secrets.md).
 */
export const RESOURCE_DISTRIBUTION_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'ResourceDistribution',
  listKind: 'ResourceDistributionList',
  plural: 'resourcedistributions',
  singular: 'resourcedistribution',
  shortNames: ['distributor'],
  scope: 'Cluster',
  versions: ['v1alpha1', 'v1beta1'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1beta1',
    schema: ResourceDistributionSchema,
    subresources: { status: true },
    printerColumns: RESOURCE_DISTRIBUTION_COLUMNS,
  })),
};
