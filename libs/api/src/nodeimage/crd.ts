import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { NodeImageSchema, NodeImageV1alpha1Schema } from './types.js';

/** `kubectl get nodeimage` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_nodeimages.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  intColumn('DESIRED', '.status.desired', 'Number of all images on this node.'),
  intColumn('PULLING', '.status.pulling', 'Number of image pull tasks active.'),
  intColumn('SUCCEED', '.status.succeeded', 'Number of image pull tasks succeeded.'),
  intColumn('FAILED', '.status.failed', 'Number of image pull tasks failed.'),
  AGE_COLUMN,
];

/**
 * NodeImage: cluster-scoped, v1alpha1 and v1beta1 served, v1beta1 stored, the status subresource. v1alpha1 lacks
 * `pullSecrets[].mode`; no conversion webhook (a v1alpha1 reader sees the field pruned away).
 */
export const NODE_IMAGE_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'NodeImage',
  listKind: 'NodeImageList',
  plural: 'nodeimages',
  singular: 'nodeimage',
  scope: 'Cluster',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema: NodeImageV1alpha1Schema,
      subresources: { status: true },
      printerColumns: COLUMNS,
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      schema: NodeImageSchema,
      subresources: { status: true },
      printerColumns: COLUMNS,
    },
  ],
};
