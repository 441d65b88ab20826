import { KRUISE_APPS_GROUP } from '../group.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { AdvancedCronJobSchema } from './types.js';

/** `kubectl get acj` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_advancedcronjobs.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule', description: 'The schedule of advanced cron job.' },
  { name: 'Type', type: 'string', jsonPath: '.status.type', description: 'Type of cron job.' },
  {
    name: 'LastScheduleTime',
    type: 'date',
    jsonPath: '.status.lastScheduleTime',
    description: 'The last time at which job was scheduled.',
  },
  AGE_COLUMN,
];

/**
 * AdvancedCronJob: names, scope, short name `acj`, the status subresource and printer columns as OpenKruise's CRD —
 * v1alpha1 and v1beta1 served with the same fields, v1beta1 stored (no conversion webhook is needed).
 */
export const ADVANCED_CRON_JOB_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'AdvancedCronJob',
  listKind: 'AdvancedCronJobList',
  plural: 'advancedcronjobs',
  singular: 'advancedcronjob',
  shortNames: ['acj'],
  scope: 'Namespaced',
  versions: ['v1alpha1', 'v1beta1'].map((name) => ({
    name,
    served: true,
    storage: name === 'v1beta1',
    schema: AdvancedCronJobSchema,
    subresources: { status: true },
    printerColumns: COLUMNS,
  })),
};
