import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { BroadcastJobSchema } from './types.js';

/** `kubectl get bcj` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_broadcastjobs.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  intColumn('Desired', '.status.desired', 'The desired number of pods: the nodes eligible to run one.'),
  intColumn('Active', '.status.active', 'The number of actively running pods.'),
  intColumn('Succeeded', '.status.succeeded', 'The number of pods which reached phase Succeeded.'),
  intColumn('Failed', '.status.failed', 'The number of pods which reached phase Failed.'),
  AGE_COLUMN,
];

/**
 * BroadcastJob: names, scope, short name `bcj`, the status subresource and printer columns as OpenKruise's CRD —
 * v1alpha1 and v1beta1 served with the same fields, v1beta1 stored (no conversion webhook is needed).
 */
export const BROADCAST_JOB_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'BroadcastJob',
  listKind: 'BroadcastJobList',
  plural: 'broadcastjobs',
  singular: 'broadcastjob',
  shortNames: ['bcj'],
  scope: 'Namespaced',
  versions: ['v1alpha1', 'v1beta1'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1beta1',
    schema: BroadcastJobSchema,
    subresources: { status: true },
    printerColumns: COLUMNS,
  })),
};
