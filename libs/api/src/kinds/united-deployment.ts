/**
 * UnitedDeployment — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's; the
 * spec/status schema is a shell kept whole until the uniteddeployment controller brings the full schema.
 */
import { Type } from '@sinclair/typebox';
import { intColumn, REPLICAS_SCALE } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { Int32 } from '../schemas/scalars.js';
import { placeholderCrd } from './placeholder-crd.js';

export const UNITED_DEPLOYMENT_CRD: CrdDefinition = placeholderCrd({
  kind: 'UnitedDeployment',
  plural: 'uniteddeployments',
  shortNames: ['ud'],
  scope: 'Namespaced',
  versions: ['v1alpha1'],
  fields: { spec: { replicas: Int32() }, status: { replicas: Int32(), labelSelector: Type.String() } },
  scale: REPLICAS_SCALE,
  printerColumns: [
    intColumn('DESIRED', '.spec.replicas', 'Desired number of pods over all subsets.'),
    intColumn('CURRENT', '.status.replicas', 'Pods that currently exist.'),
    intColumn('UPDATED', '.status.updatedReplicas', 'Pods at the update revision.'),
    intColumn('READY', '.status.readyReplicas', 'Pods that are ready.'),
    AGE_COLUMN,
  ],
});
