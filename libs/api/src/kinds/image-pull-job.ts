/**
 * ImagePullJob — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's (v1alpha1 has
 * the extra MESSAGE column); the spec/status schema is a shell kept whole until the imagepull controller brings the
 * full schema.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';

const schema = placeholderKindSchema();

const columns: PrinterColumn[] = [
  intColumn('TOTAL', '.status.desired', 'Nodes the job pulls on.'),
  intColumn('ACTIVE', '.status.active', 'Nodes still pulling.'),
  intColumn('SUCCEED', '.status.succeeded', 'Nodes where the pull succeeded.'),
  intColumn('FAILED', '.status.failed', 'Nodes where the pull failed.'),
  AGE_COLUMN,
];

export const IMAGE_PULL_JOB_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'ImagePullJob',
  listKind: 'ImagePullJobList',
  plural: 'imagepulljobs',
  singular: 'imagepulljob',
  scope: 'Namespaced',
  placeholder: true,
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema,
      subresources: { status: true },
      printerColumns: [
        ...columns,
        { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'Summary of the job state.' },
      ],
    },
    { name: 'v1beta1', served: true, storage: true, schema, subresources: { status: true }, printerColumns: columns },
  ],
};
