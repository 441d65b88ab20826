/**
 * Advanced DaemonSet — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's; the
 * spec/status schema is a shell kept whole until the ads controller brings the full schema.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { placeholderKindSchema } from '../schemas/placeholder.js';

const schema = placeholderKindSchema();

const columns: PrinterColumn[] = [
  intColumn('DESIRED', '.status.desiredNumberScheduled', 'Nodes that should run the daemon pod.'),
  intColumn('CURRENT', '.status.currentNumberScheduled', 'Nodes that run at least one daemon pod.'),
  intColumn('READY', '.status.numberReady', 'Nodes whose daemon pod is ready.'),
  intColumn('UP-TO-DATE', '.status.updatedNumberScheduled', 'Nodes whose daemon pod is at the update revision.'),
  intColumn('AVAILABLE', '.status.numberAvailable', 'Nodes whose daemon pod is available.'),
  AGE_COLUMN,
  ...TEMPLATE_WIDE_COLUMNS,
];

export const DAEMONSET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'DaemonSet',
  listKind: 'DaemonSetList',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['daemon', 'ads'],
  scope: 'Namespaced',
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
