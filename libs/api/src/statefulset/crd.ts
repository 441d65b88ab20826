/**
 * Advanced StatefulSet: names, scope, versions, subresources and printer columns as OpenKruise v1.9's CRD
 * (`config/crd/bases/apps.kruise.io_statefulsets.yaml`).
 *
 * Versions: `v1beta1` is stored; the deprecated `v1alpha1` is served with the **same** schema and no conversion
 * webhook (strategy `None`: the API server only rewrites `apiVersion`). OpenKruise's base CRD has no conversion
 * either, but its kustomize overlay (`config/crd/patches/webhook_in_statefulsets.yaml`) installs a conversion webhook
 * that copies the fields v1alpha1 has (v1alpha1 is a subset of v1beta1: it lacks reserveOrdinals, lifecycle,
 * scaleStrategy, the PVC retention policy, ordinals, volumeClaimUpdateStrategy, and the status fields
 * updatedReadyReplicas, updatedAvailableReplicas and volumeClaims). With one schema for both, every v1alpha1 object
 * reads identically as v1beta1 and back, which is what that webhook computes for the shared fields, without a
 * webhook on the read path; a v1alpha1 client may also write the v1beta1-only fields (docs/adr/0017).
 *
 * Short names `sts` and `asts` as OpenKruise: `kubectl get sts` keeps meaning the built-in `statefulsets.apps`
 * (kubectl resolves a short name shared by several resources to the built-in group first — the `apps` group is
 * earlier in discovery); `kubectl get asts` or `statefulsets.apps.kruise.io` reach this kind.
 */
import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn, REPLICAS_SCALE, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition, type CrdVersionDefinition, type PrinterColumn } from '../crd/definition.js';
import { StatefulSetSchema } from './types.js';

const PRINTER_COLUMNS: readonly PrinterColumn[] = [
  intColumn('DESIRED', '.spec.replicas', 'The desired number of pods.'),
  intColumn('CURRENT', '.status.replicas', 'The number of currently all pods.'),
  intColumn('UPDATED', '.status.updatedReplicas', 'The number of pods updated.'),
  intColumn('READY', '.status.readyReplicas', 'The number of pods ready.'),
  AGE_COLUMN,
  ...TEMPLATE_WIDE_COLUMNS,
];

const version = (name: string, storage: boolean): CrdVersionDefinition => ({
  name,
  served: true,
  storage,
  schema: StatefulSetSchema,
  subresources: { status: true, scale: REPLICAS_SCALE },
  printerColumns: PRINTER_COLUMNS,
});

export const STATEFULSET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'StatefulSet',
  listKind: 'StatefulSetList',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts', 'asts'],
  scope: 'Namespaced',
  versions: [version('v1alpha1', false), version('v1beta1', true)],
};
