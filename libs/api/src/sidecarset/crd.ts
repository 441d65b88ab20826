import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { SidecarSetSchema, SidecarSetV1alpha1Schema } from './types.js';

/** `kubectl get sidecarset` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_sidecarsets.yaml`). */
const SIDECARSET_COLUMNS: readonly PrinterColumn[] = [
  intColumn('MATCHED', '.status.matchedPods', 'The number of pods matched.'),
  intColumn('UPDATED', '.status.updatedPods', 'The number of pods matched and updated.'),
  intColumn('READY', '.status.readyPods', 'The number of pods matched and ready.'),
  AGE_COLUMN,
];

/**
 * SidecarSet: names, scope (Cluster), versions, subresources and printer columns as OpenKruise's CRD — v1alpha1 and
 * v1beta1 served, v1beta1 stored, the status subresource only. The versions are not converted by a webhook
 * (docs/adr/0025-sidecarset-api.md).
 */
export const SIDECARSET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'SidecarSet',
  listKind: 'SidecarSetList',
  plural: 'sidecarsets',
  singular: 'sidecarset',
  scope: 'Cluster',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema: SidecarSetV1alpha1Schema,
      subresources: { status: true },
      printerColumns: SIDECARSET_COLUMNS,
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      schema: SidecarSetSchema,
      subresources: { status: true },
      printerColumns: SIDECARSET_COLUMNS,
    },
  ],
};
