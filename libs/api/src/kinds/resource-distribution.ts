/**
 * ResourceDistribution (cluster-scoped) — PLACEHOLDER. Names, versions, subresources and printer columns are
 * OpenKruise v1.9's (v1alpha1 only; v1beta1 came after v1.9); the spec/status schema is a shell kept whole until
 * the resourcedistribution controller brings the full schema.
 */
import { intColumn } from '../crd/columns.js';
import type { CrdDefinition } from '../crd/definition.js';
import { placeholderCrd } from './placeholder-crd.js';

export const RESOURCE_DISTRIBUTION_CRD: CrdDefinition = placeholderCrd({
  kind: 'ResourceDistribution',
  plural: 'resourcedistributions',
  shortNames: ['distributor'],
  scope: 'Cluster',
  versions: ['v1alpha1'],
  // OpenKruise has no AGE column here
  printerColumns: [
    intColumn('TOTAL', '.status.desired', 'Namespaces the resource should be distributed to.'),
    intColumn('SUCCEED', '.status.succeeded', 'Namespaces where the resource is up to date.'),
    intColumn('FAILED', '.status.failed', 'Namespaces where distributing failed.'),
  ],
});
