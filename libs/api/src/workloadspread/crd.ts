import { KRUISE_APPS_GROUP } from '../group.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { WorkloadSpreadSchema } from './types.js';

/** `kubectl get ws` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_workloadspreads.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  { name: 'WorkloadName', type: 'string', jsonPath: '.spec.targetRef.name' },
  { name: 'WorkloadKind', type: 'string', jsonPath: '.spec.targetRef.kind' },
  {
    name: 'Adaptive',
    type: 'boolean',
    jsonPath: '.spec.scheduleStrategy.type[?(@ == "Adaptive")]',
    description: 'Whether use the adaptive reschedule strategy',
  },
  // `Age`, as upstream spells it here
  { ...AGE_COLUMN, name: 'Age' },
];

/** WorkloadSpread: names, scope, short name `ws`, the status subresource and printer columns as OpenKruise's CRD. */
export const WORKLOAD_SPREAD_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'WorkloadSpread',
  listKind: 'WorkloadSpreadList',
  plural: 'workloadspreads',
  singular: 'workloadspread',
  shortNames: ['ws'],
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: WorkloadSpreadSchema,
      subresources: { status: true },
      printerColumns: COLUMNS,
    },
  ],
};
