import { intColumn } from '../crd/columns.js';
import type { CrdDefinition, PrinterColumn } from '../crd/definition.js';
import { KRUISE_POLICY_GROUP, PodUnavailableBudgetSchema } from './types.js';

/** `kubectl get pub` columns, as OpenKruise's CRD (`config/crd/bases/policy.kruise.io_podunavailablebudgets.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  intColumn(
    'Allowed',
    '.status.unavailableAllowed',
    'UnavailableAllowed number of pod unavailable that are currently allowed',
  ),
  intColumn('Current', '.status.currentAvailable', 'CurrentAvailable current number of available pods'),
  intColumn(
    'Desired',
    '.status.desiredAvailable',
    'DesiredAvailable minimum desired number of available pods',
  ),
  intColumn('Total', '.status.totalReplicas', 'TotalReplicas total number of pods counted by this budget'),
];

/** PodUnavailableBudget: namespaced, v1alpha1 only, the status subresource, short name `pub`, no Age column (as upstream). */
export const POD_UNAVAILABLE_BUDGET_CRD: CrdDefinition = {
  group: KRUISE_POLICY_GROUP,
  kind: 'PodUnavailableBudget',
  listKind: 'PodUnavailableBudgetList',
  plural: 'podunavailablebudgets',
  singular: 'podunavailablebudget',
  shortNames: ['pub'],
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: PodUnavailableBudgetSchema,
      subresources: { status: true },
      printerColumns: COLUMNS,
    },
  ],
};
