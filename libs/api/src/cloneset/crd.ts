import { KRUISE_APPS_GROUP } from '../group.js';
import { intColumn, REPLICAS_SCALE, TEMPLATE_WIDE_COLUMNS } from '../crd/columns.js';
import { AGE_COLUMN, type CrdDefinition } from '../crd/definition.js';
import { CloneSetSchema } from './types.js';

/** CloneSet: names, scope, subresources and printer columns as OpenKruise v1.9's CRD. */
export const CLONESET_CRD: CrdDefinition = {
  group: KRUISE_APPS_GROUP,
  kind: 'CloneSet',
  listKind: 'CloneSetList',
  plural: 'clonesets',
  singular: 'cloneset',
  shortNames: ['clone'],
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: CloneSetSchema,
      subresources: { status: true, scale: REPLICAS_SCALE },
      printerColumns: [
        intColumn('DESIRED', '.spec.replicas', 'Desired number of pods.'),
        intColumn('UPDATED', '.status.updatedReplicas', 'Pods at the update revision.'),
        intColumn('UPDATED_READY', '.status.updatedReadyReplicas', 'Pods at the update revision that are ready.'),
        intColumn('UPDATED_AVAILABLE', '.status.updatedAvailableReplicas', 'Pods at the update revision that are available.'),
        intColumn('READY', '.status.readyReplicas', 'Pods that are ready.'),
        intColumn('TOTAL', '.status.replicas', 'All active pods of the CloneSet.'),
        AGE_COLUMN,
        ...TEMPLATE_WIDE_COLUMNS,
        {
          name: 'SELECTOR',
          type: 'string',
          jsonPath: '.status.labelSelector',
          description: 'The label selector of the CloneSet.',
          priority: 1,
        },
      ],
    },
  ],
};
