/**
 * Advanced DaemonSet — PLACEHOLDER. Names, versions, subresources and printer columns are OpenKruise v1.9's; the
 * spec/status schema is a shell kept whole until the ads controller brings the full schema.
 */
import { intColumn, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { placeholderCrd } from './placeholder-crd.js';

export const DAEMONSET_CRD: CrdDefinition = placeholderCrd({
  kind: 'DaemonSet',
  plural: 'daemonsets',
  shortNames: ['daemon', 'ads'],
  scope: 'Namespaced',
  printerColumns: [
    intColumn('DESIRED', '.status.desiredNumberScheduled', 'Nodes that should run the daemon pod.'),
    intColumn('CURRENT', '.status.currentNumberScheduled', 'Nodes that run at least one daemon pod.'),
    intColumn('READY', '.status.numberReady', 'Nodes whose daemon pod is ready.'),
    intColumn('UP-TO-DATE', '.status.updatedNumberScheduled', 'Nodes whose daemon pod is at the update revision.'),
    intColumn('AVAILABLE', '.status.numberAvailable', 'Nodes whose daemon pod is available.'),
    AGE_COLUMN,
    ...TEMPLATE_WIDE_COLUMNS,
  ],
});
