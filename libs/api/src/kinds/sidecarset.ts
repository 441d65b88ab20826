/**
 * SidecarSet (cluster-scoped) — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise
 * v1.9's; the spec/status schema is a shell kept whole until the sidecarset controller brings the full schema.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';

const schema = placeholderKindSchema();

const columns: PrinterColumn[] = [
  intColumn('MATCHED', '.status.matchedPods', 'Pods the SidecarSet selects.'),
  intColumn('UPDATED', '.status.updatedPods', 'Selected pods with the current sidecar containers.'),
  intColumn('READY', '.status.readyPods', 'Selected pods that are ready.'),
  AGE_COLUMN,
];

export const SIDECARSET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'SidecarSet',
  listKind: 'SidecarSetList',
  plural: 'sidecarsets',
  singular: 'sidecarset',
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
