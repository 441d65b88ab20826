/**
 * Advanced StatefulSet — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's; the
 * spec/status schema is a shell kept whole until the asts controller brings the full schema.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn, REPLICAS_SCALE, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';
import { Int32 } from '../schemas/scalars.js';
import { Type } from '@sinclair/typebox';

const schema = placeholderKindSchema({
  spec: { replicas: Int32() },
  status: { replicas: Int32(), labelSelector: Type.String() },
});

const columns: PrinterColumn[] = [
  intColumn('DESIRED', '.spec.replicas', 'Desired number of pods.'),
  intColumn('CURRENT', '.status.replicas', 'Pods that currently exist.'),
  intColumn('UPDATED', '.status.updatedReplicas', 'Pods at the update revision.'),
  intColumn('READY', '.status.readyReplicas', 'Pods that are ready.'),
  AGE_COLUMN,
  ...TEMPLATE_WIDE_COLUMNS,
];

export const STATEFULSET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts', 'asts'],
  scope: 'Namespaced',
  placeholder: true,
  versions: ['v1alpha1', 'v1beta1'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1beta1',
    schema,
    subresources: { status: true, scale: REPLICAS_SCALE },
    printerColumns: columns,
  })),
};
