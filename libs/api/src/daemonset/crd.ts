import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { DaemonSetSchema, DaemonSetV1alpha1Schema } from './types.js';

/** `kubectl get daemon` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_daemonsets.yaml`). */
const DAEMONSET_COLUMNS: readonly PrinterColumn[] = [
  intColumn('DESIRED', '.status.desiredNumberScheduled', 'Nodes that should run the daemon pod.'),
  intColumn('CURRENT', '.status.currentNumberScheduled', 'Nodes that run at least one daemon pod.'),
  intColumn('READY', '.status.numberReady', 'Nodes whose daemon pod is ready.'),
  intColumn('UP-TO-DATE', '.status.updatedNumberScheduled', 'Nodes whose daemon pod is at the update revision.'),
  intColumn('AVAILABLE', '.status.numberAvailable', 'Nodes whose daemon pod is available.'),
  AGE_COLUMN,
  ...TEMPLATE_WIDE_COLUMNS,
];

/**
 * Advanced DaemonSet: names, scope, versions, subresources and printer columns as OpenKruise's CRD — v1alpha1 and
 * v1beta1 served, v1beta1 stored, the status subresource only (no scale). The versions are not converted by a
 * webhook (docs/adr/0019-daemonset-versions-and-admission.md).
 */
export const DAEMONSET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'DaemonSet',
  listKind: 'DaemonSetList',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['daemon', 'ads'],
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema: DaemonSetV1alpha1Schema,
      subresources: { status: true },
      printerColumns: DAEMONSET_COLUMNS,
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      schema: DaemonSetSchema,
      subresources: { status: true },
      printerColumns: DAEMONSET_COLUMNS,
    },
  ],
};
