import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn, REPLICAS_SCALE } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { UnitedDeploymentSchema, UnitedDeploymentV1alpha1Schema } from './types.js';

/** `kubectl get ud` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_uniteddeployments.yaml`). */
const UNITED_DEPLOYMENT_COLUMNS: readonly PrinterColumn[] = [
  intColumn('DESIRED', '.spec.replicas', 'The desired number of pods.'),
  intColumn('CURRENT', '.status.replicas', 'The number of currently all pods.'),
  intColumn('UPDATED', '.status.updatedReplicas', 'The number of pods updated.'),
  intColumn('READY', '.status.readyReplicas', 'The number of pods ready.'),
  AGE_COLUMN,
];

/**
 * UnitedDeployment: names, scope, versions, subresources and printer columns as OpenKruise's CRD — v1alpha1 and
 * v1beta1 served, v1beta1 stored, status and scale subresources (HPA reads `status.labelSelector`). The versions are
 * not converted by a webhook (docs/adr/0028-uniteddeployment-api.md).
 */
export const UNITED_DEPLOYMENT_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'UnitedDeployment',
  listKind: 'UnitedDeploymentList',
  plural: 'uniteddeployments',
  singular: 'uniteddeployment',
  shortNames: ['ud'],
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: false,
      schema: UnitedDeploymentV1alpha1Schema,
      subresources: { status: true, scale: REPLICAS_SCALE },
      printerColumns: UNITED_DEPLOYMENT_COLUMNS,
    },
    {
      name: 'v1beta1',
      served: true,
      storage: true,
      schema: UnitedDeploymentSchema,
      subresources: { status: true, scale: REPLICAS_SCALE },
      printerColumns: UNITED_DEPLOYMENT_COLUMNS,
    },
  ],
};
