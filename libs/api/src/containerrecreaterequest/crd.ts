import { KRUISE_APPS_GROUP } from '../group.js';
import { AGE_COLUMN, type CrdDefinition, type PrinterColumn } from '../crd/definition.js';
import { ContainerRecreateRequestSchema } from './types.js';

/** `kubectl get crr` columns, as OpenKruise's CRD (`config/crd/bases/apps.kruise.io_containerrecreaterequests.yaml`). */
const COLUMNS: readonly PrinterColumn[] = [
  {
    name: 'PHASE',
    type: 'string',
    jsonPath: '.status.phase',
    description: 'Phase of this ContainerRecreateRequest.',
  },
  {
    name: 'POD',
    type: 'string',
    jsonPath: '.spec.podName',
    description: 'Pod name of this ContainerRecreateRequest.',
  },
  {
    name: 'NODE',
    type: 'string',
    jsonPath: '.metadata.labels.crr\\.apps\\.kruise\\.io/node-name',
    description: 'Node name of this ContainerRecreateRequest.',
  },
  AGE_COLUMN,
];

/** ContainerRecreateRequest: namespaced, v1alpha1 only, the status subresource, short name `crr`. */
export const CONTAINER_RECREATE_REQUEST_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'ContainerRecreateRequest',
  listKind: 'ContainerRecreateRequestList',
  plural: 'containerrecreaterequests',
  singular: 'containerrecreaterequest',
  shortNames: ['crr'],
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: ContainerRecreateRequestSchema,
      subresources: { status: true },
      printerColumns: COLUMNS,
    },
  ],
};
