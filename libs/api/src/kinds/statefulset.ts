/**
 * Advanced StatefulSet — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's; the
 * spec/status schema is a shell kept whole until the asts controller brings the full schema.
 */
import { Type } from '@sinclair/typebox';
import { intColumn, REPLICAS_SCALE, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { Int32 } from '../schemas/scalars.js';
import { placeholderCrd } from './placeholder-crd.js';

export const STATEFULSET_CRD: CrdDefinition = placeholderCrd({
  kind: 'StatefulSet',
  plural: 'statefulsets',
  shortNames: ['sts', 'asts'],
  scope: 'Namespaced',
  fields: { spec: { replicas: Int32() }, status: { replicas: Int32(), labelSelector: Type.String() } },
  scale: REPLICAS_SCALE,
  printerColumns: [
    intColumn('DESIRED', '.spec.replicas', 'Desired number of pods.'),
    intColumn('CURRENT', '.status.replicas', 'Pods that currently exist.'),
    intColumn('UPDATED', '.status.updatedReplicas', 'Pods at the update revision.'),
    intColumn('READY', '.status.readyReplicas', 'Pods that are ready.'),
    AGE_COLUMN,
    ...TEMPLATE_WIDE_COLUMNS,
  ],
});
