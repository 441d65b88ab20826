/**
 * NodeImage (cluster-scoped, one per node) — PLACEHOLDER. Names, versions, subresources and printer columns are
 * OpenKruise v1.9's; the spec/status schema is a shell kept whole until the imagepull controller brings the full
 * schema.
 */
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { placeholderCrd } from './placeholder-crd.js';

export const NODE_IMAGE_CRD: CrdDefinition = placeholderCrd({
  kind: 'NodeImage',
  plural: 'nodeimages',
  scope: 'Cluster',
  printerColumns: [
    intColumn('DESIRED', '.status.desired', 'Image tags the node should have.'),
    intColumn('PULLING', '.status.pulling', 'Image tags being pulled.'),
    intColumn('SUCCEED', '.status.succeeded', 'Image tags pulled.'),
    intColumn('FAILED', '.status.failed', 'Image tags whose pull failed.'),
    AGE_COLUMN,
  ],
});
