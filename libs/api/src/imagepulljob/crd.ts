import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { ImagePullJobSchema } from './types.js';

/** `kubectl get imagepulljob` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_imagepulljobs.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  intColumn('TOTAL', '.status.desired', 'Number of all nodes matched by this job.'),
  intColumn('ACTIVE', '.status.active', 'Number of image pull tasks active.'),
  intColumn('SUCCEED', '.status.succeeded', 'Number of image pull tasks succeeded.'),
  intColumn('FAILED', '.status.failed', 'Number of image pull tasks failed.'),
  AGE_COLUMN,
];

/**
 * ImagePullJob: v1alpha1 and v1beta1 served with the same fields, v1beta1 stored, the status subresource; v1alpha1
 * also shows MESSAGE. No conversion webhook is needed (identical schemas).
 */
export const IMAGE_PULL_JOB_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'ImagePullJob',
  listKind: 'ImagePullJobList',
  plural: 'imagepulljobs',
  singular: 'imagepulljob',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema: ImagePullJobSchema,
      subresources: { status: true },
      printerColumns: [
        ...COLUMNS,
        { name: 'MESSAGE', type: 'string', jsonPath: '.status.message', description: 'Summary of the job state.' },
      ],
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      schema: ImagePullJobSchema,
      subresources: { status: true },
      printerColumns: COLUMNS,
    },
  ],
};
