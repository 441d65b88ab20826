/**
 * NodeImage (cluster-scoped, one per node) — PLACEHOLDER. Names, versions, subresources and printer columns are
 * OpenKruise v1.9's; the spec/status schema is a shell kept whole until the imagepull controller brings the full
 * schema.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';

const schema = placeholderKindSchema();

const columns: PrinterColumn[] = [
  intColumn('DESIRED', '.status.desired', 'Image tags the node should have.'),
  intColumn('PULLING', '.status.pulling', 'Image tags being pulled.'),
  intColumn('SUCCEED', '.status.succeeded', 'Image tags pulled.'),
  intColumn('FAILED', '.status.failed', 'Image tags whose pull failed.'),
  AGE_COLUMN,
];

export const NODE_IMAGE_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'NodeImage',
  listKind: 'NodeImageList',
  plural: 'nodeimages',
  singular: 'nodeimage',
  scope: 'Cluster',
  placeholder: true,
  versions: ['v1alpha1', 'v1beta1'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1beta1',
    schema,
    subresources: { status: true },
    printerColumns: columns,
  })),
};
